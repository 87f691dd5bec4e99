import type { KnowledgeComponent } from '../kcs/kcs.service.ts';
import type {
  ComponentAlphaResolvers,
  ComponentResolvers,
  RemediationEntryResolvers,
  TargetRefResolvers,
} from '../generated/graphql.ts';
import type { CurriculumLoaders } from './loaders.ts';
import { requestContextOf } from '../../../platform/graphql.ts';
import { queryStringOf } from '../../../platform/naming.ts';
import type { CurriculumDeps } from '../deps.ts';
import { nextLesson } from '../routing/next-lesson.service.ts';

/** A component's alpha as stored (validated on write); its KC scope resolves to registry KCs. */
export interface ComponentAlphaRecord {
  scope_kc_refs?: string[];
}

export function componentResolvers(
  deps: CurriculumDeps,
  { componentLoader, childrenLoader, approvalLoader, descendantsLoader }: CurriculumLoaders,
): ComponentResolvers {
  return {
    __resolveReference: (reference, context) => componentLoader(context).load(reference.componentId),
    parent: (component, _args, context) =>
      component.parent_component_id ? componentLoader(context).load(component.parent_component_id) : null,
    children: (component, args, context) => childrenLoader(context, args.includeRetired).load(component.component_id),
    descendants: (component, _args, context) => descendantsLoader(context).load(component.component_id),
    currentApproval: (component, _args, context) =>
      component.kind === 'course' && component.parent_component_id === null
        ? approvalLoader(context).load(component.component_id)
        : null,
    nextLesson: (component, args, context) =>
      nextLesson(deps, requestContextOf(context), { courseId: component.component_id, query: queryStringOf(args) }),
  };
}

export function componentAlphaResolvers({ kcLoader }: CurriculumLoaders): ComponentAlphaResolvers {
  return {
    scopeKcs: async (alpha, _args, context) =>
      (await kcLoader(context).loadMany(alpha.scope_kc_refs ?? [])).filter(
        (kc): kc is KnowledgeComponent => kc !== null && !(kc instanceof Error),
      ),
  };
}

/** A pin's version is content's ContentVersion entity. */
export const targetRefResolvers: TargetRefResolvers = {
  version: (ref) => ({ __typename: 'ContentVersion', versionId: ref.content_version_id }),
};

/** An entry is stored as REST takes it, one object: what is not kc_ref is otherFields. */
export const remediationEntryResolvers: RemediationEntryResolvers = {
  otherFields: (entry) => {
    const { kc_ref: _kcRef, ...others } = entry as Record<string, unknown>;
    return Object.keys(others).length > 0 ? others : null;
  },
};
