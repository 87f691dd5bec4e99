import { z } from 'zod';
import type { RequestContext } from '../../platform/context.ts';
import { serviceGet, type ServiceClientOptions } from '../../platform/service-client.ts';

/**
 * Content's only way to curriculum: its published reads GET .../v1/kcs/{kcId} (the governed KC
 * registry) and GET .../v1/components/{id}/tree (a component's subtree), with a service token of
 * the caller's tenant and a timeout. It never throws: the caller decides what "no answer" means
 * (fail closed).
 */

const KcAnswer = z.object({
  kc_id: z.string(),
  stored_as: z.string(),
  publication_status: z.string().optional(),
  status: z.string().optional(),
  retired_at: z.string().nullable().optional(),
});

export type KcLookup =
  { outcome: 'active' } | { outcome: 'inactive'; reason: string } | { outcome: 'failed'; reason: string };

export type SubtreeLookup =
  | { outcome: 'found'; contentIds: string[]; nodeIds: string[] }
  | { outcome: 'not_found' }
  | { outcome: 'failed'; reason: string };

export interface CurriculumClient {
  lookupKc(ctx: RequestContext, kcId: string): Promise<KcLookup>;
  /** The content ids targeted by the active components of a subtree, and the subtree's node ids. */
  subtree(ctx: RequestContext, componentId: string): Promise<SubtreeLookup>;
}

interface TreeNode {
  component_id: string;
  status?: string;
  alpha?: { target_ref?: { content_id?: unknown } };
  children?: TreeNode[];
}

const TreeAnswer: z.ZodType<TreeNode> = z.lazy(() =>
  z
    .object({
      component_id: z.string(),
      status: z.string().optional(),
      alpha: z
        .object({ target_ref: z.object({ content_id: z.unknown().optional() }).passthrough().nullish() })
        .passthrough()
        .optional(),
      children: z.array(TreeAnswer).optional(),
    })
    .passthrough(),
) as z.ZodType<TreeNode>;

const RETIRED = new Set(['retired', 'soft_retired', 'soft-retired']);

export function httpCurriculumClient(options: ServiceClientOptions): CurriculumClient {
  const curriculumGet = serviceGet(options, 'content', ['curriculum:read']);
  const get = (ctx: RequestContext, path: string) => curriculumGet(ctx, `/alpha/curriculum/v1/${path}`);
  return {
    async lookupKc(ctx, kcId) {
      const result = await get(ctx, `kcs/${encodeURIComponent(kcId)}`);
      if (!result.ok) return { outcome: 'failed', reason: result.kind };
      if (result.status === 404 || result.status === 410)
        return { outcome: 'inactive', reason: 'not a KC of the registry' };
      if (result.status !== 200) return { outcome: 'failed', reason: `status ${result.status}` };
      const kc = KcAnswer.safeParse(result.body);
      if (!kc.success || kc.data.kc_id !== kcId) return { outcome: 'failed', reason: 'malformed answer' };
      // A CASE KC (or anything not stored as a registry KC) never counts as one.
      if (kc.data.stored_as !== 'alpha.knowledge_component')
        return { outcome: 'inactive', reason: `stored_as ${kc.data.stored_as} is not a registry KC` };
      const state = [kc.data.status, kc.data.publication_status].filter(
        (value): value is string => value !== undefined,
      );
      if ((kc.data.retired_at ?? null) !== null || state.some((value) => RETIRED.has(value)))
        return { outcome: 'inactive', reason: 'the KC is retired' };
      return { outcome: 'active' };
    },
    async subtree(ctx, componentId) {
      const result = await get(ctx, `components/${encodeURIComponent(componentId)}/tree`);
      if (!result.ok) return { outcome: 'failed', reason: result.kind };
      if (result.status === 404) return { outcome: 'not_found' };
      if (result.status !== 200) return { outcome: 'failed', reason: `status ${result.status}` };
      const tree = TreeAnswer.safeParse(result.body);
      if (!tree.success || tree.data.component_id !== componentId)
        return { outcome: 'failed', reason: 'malformed answer' };
      const contentIds: string[] = [];
      const nodeIds: string[] = [];
      const visit = (node: TreeNode) => {
        if (node.status !== undefined && node.status !== 'active') return;
        nodeIds.push(node.component_id);
        const target = node.alpha?.target_ref?.content_id;
        if (typeof target === 'string') contentIds.push(target);
        node.children?.forEach(visit);
      };
      visit(tree.data);
      return { outcome: 'found', contentIds, nodeIds };
    },
  };
}
