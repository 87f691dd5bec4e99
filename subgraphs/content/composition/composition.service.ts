import { inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError, type FieldError } from '../../../platform/errors.ts';
import { isoTimestamp, parseInput, uuidRef } from '../../../platform/validation.ts';
import { assessmentComponents, interactiveCompositions, items, versions } from '../tables.ts';
import { ACCESS } from '../access.ts';
import type { ContentDeps } from '../deps.ts';
import { requireItemRecord, requireItemRow } from '../queries.ts';
import { tenantRows } from '../../../platform/tenant-rows.ts';
import type { ItemKey, ItemWrite } from '../inputs.ts';

/**
 * Interactive composition (rule 9): the ordered question bindings of an interactive item, replaced
 * as a whole. Video cues strictly increase within (0, duration_seconds); article segments are
 * ordered positive integers, where several questions may share one segment (the contract asks for
 * an order, and strictness only for cues); every question_ref resolves to a question of the tenant
 * (and a given component through it); every embedded question attests tests_prior_content=true.
 */

const QuestionRef = z
  .object({ content_id: uuidRef(), version_id: uuidRef().optional(), assessment_component_id: uuidRef().optional() })
  .strict();

const Binding = z
  .object({
    at_seconds: z.number().optional().describe('interactive_video: cue time'),
    segment: z.number().int().optional().describe('interactive_article: segment position'),
    question_ref: QuestionRef,
    tests_prior_content: z.boolean(),
  })
  .strict();

export const CompositionInput = z
  .object({
    type: z.enum(['interactive_article', 'interactive_video']),
    duration_seconds: z.number().positive().optional(),
    bindings: z.array(Binding).max(500),
  })
  .strict()
  .superRefine((composition, issues) => {
    const video = composition.type === 'interactive_video';
    if (video && composition.duration_seconds === undefined)
      issues.addIssue({
        code: 'custom',
        path: ['duration_seconds'],
        message: 'an interactive_video needs duration_seconds',
      });
    if (!video && composition.duration_seconds !== undefined)
      issues.addIssue({
        code: 'custom',
        path: ['duration_seconds'],
        message: 'only an interactive_video has a duration',
      });
    let previous = -Infinity;
    composition.bindings.forEach((binding, index) => {
      const path = ['bindings', index];
      if (!binding.tests_prior_content)
        issues.addIssue({
          code: 'custom',
          path: [...path, 'tests_prior_content'],
          message: 'an embedded question must test prior content',
        });
      if (video) {
        if (binding.segment !== undefined)
          issues.addIssue({
            code: 'custom',
            path: [...path, 'segment'],
            message: 'video cues have at_seconds, not segment',
          });
        const at = binding.at_seconds;
        if (at === undefined)
          return issues.addIssue({ code: 'custom', path: [...path, 'at_seconds'], message: 'required' });
        if (!(at > 0) || !(at < (composition.duration_seconds ?? 0)))
          issues.addIssue({
            code: 'custom',
            path: [...path, 'at_seconds'],
            message: 'must be greater than 0 and less than duration_seconds',
          });
        if (!(at > previous))
          issues.addIssue({ code: 'custom', path: [...path, 'at_seconds'], message: 'cues must strictly increase' });
        previous = at;
      } else {
        if (binding.at_seconds !== undefined)
          issues.addIssue({
            code: 'custom',
            path: [...path, 'at_seconds'],
            message: 'article segments have segment, not at_seconds',
          });
        const segment = binding.segment;
        if (segment === undefined)
          return issues.addIssue({ code: 'custom', path: [...path, 'segment'], message: 'required' });
        if (segment < 1) issues.addIssue({ code: 'custom', path: [...path, 'segment'], message: 'a positive integer' });
        if (!(segment >= previous))
          issues.addIssue({ code: 'custom', path: [...path, 'segment'], message: 'segments must not decrease' });
        previous = segment;
      }
    });
  });
export type Composition = z.infer<typeof CompositionInput>;

type CompositionRow = typeof interactiveCompositions.$inferSelect;
const presentComposition = (row: CompositionRow) => ({
  content_id: row.contentId,
  ...(row.composition as Composition),
  revision: row.revision,
  updated_by: row.updatedBy,
  updated_at: isoTimestamp(row.updatedAt),
});
export type InteractiveComposition = ReturnType<typeof presentComposition>;

/** Resolution of every question_ref, reported per binding. */
async function resolutionErrors(db: Database, tenantId: string, composition: Composition): Promise<FieldError[]> {
  const refs = composition.bindings.map((binding) => binding.question_ref);
  if (refs.length === 0) return [];
  const itemRows = await db
    .select({ contentId: items.contentId, kind: items.contentKind })
    .from(items)
    .where(tenantRows(items, tenantId, {}, inArray(items.contentId, [...new Set(refs.map((ref) => ref.content_id))])));
  const kindOf = new Map(itemRows.map((row) => [row.contentId, row.kind]));
  const versionIds = refs.flatMap((ref) => (ref.version_id ? [ref.version_id] : []));
  const versionOwner = new Map(
    versionIds.length === 0
      ? []
      : (
          await db
            .select({ id: versions.versionId, contentId: versions.contentId })
            .from(versions)
            .where(tenantRows(versions, tenantId, {}, inArray(versions.versionId, versionIds)))
        ).map((row) => [row.id, row.contentId]),
  );
  const componentIds = refs.flatMap((ref) => (ref.assessment_component_id ? [ref.assessment_component_id] : []));
  const components = new Map(
    componentIds.length === 0
      ? []
      : (
          await db
            .select({
              id: assessmentComponents.componentId,
              contentId: assessmentComponents.contentId,
              versionId: assessmentComponents.versionId,
            })
            .from(assessmentComponents)
            .where(
              tenantRows(assessmentComponents, tenantId, {}, inArray(assessmentComponents.componentId, componentIds)),
            )
        ).map((row) => [row.id, row]),
  );
  const errors: FieldError[] = [];
  refs.forEach((ref, index) => {
    const field = `bindings.${index}.question_ref`;
    const kind = kindOf.get(ref.content_id);
    if (kind !== 'question')
      errors.push({
        field: `${field}.content_id`,
        message: kind ? `a ${kind}, not a question` : 'no such content item',
      });
    if (ref.version_id && versionOwner.get(ref.version_id) !== ref.content_id)
      errors.push({ field: `${field}.version_id`, message: 'not a version of that question' });
    if (ref.assessment_component_id) {
      const component = components.get(ref.assessment_component_id);
      if (
        !component ||
        component.contentId !== ref.content_id ||
        (ref.version_id && component.versionId !== ref.version_id)
      ) {
        errors.push({ field: `${field}.assessment_component_id`, message: 'does not resolve through that question' });
      }
    }
  });
  return errors;
}

export async function putComposition(deps: ContentDeps, ctx: RequestContext, { contentId, body: rawInput }: ItemWrite) {
  requireAccess(ctx.principal, ACCESS.author, 'compose interactive items');
  const { db } = deps;
  const input = parseInput(CompositionInput, rawInput);
  return db.transaction(async (tx) => {
    const item = await requireItemRow(tx, ctx.tenantId, contentId, { lock: true });
    const errors: FieldError[] =
      item.contentKind === 'interactive'
        ? []
        : [{ field: 'content_kind', message: `a ${item.contentKind} has no interactive composition` }];
    errors.push(...(await resolutionErrors(tx, ctx.tenantId, input)));
    if (errors.length > 0)
      throw new DomainError('validation_failed', 'The interactive composition is not valid.', { fieldErrors: errors });
    const key = tenantRows(interactiveCompositions, ctx.tenantId, { contentId });
    const [existing] = await tx
      .select({ revision: interactiveCompositions.revision })
      .from(interactiveCompositions)
      .where(key);
    const values = {
      composition: input,
      revision: (existing?.revision ?? 0) + 1,
      updatedBy: ctx.principal.subject,
      updatedAt: ctx.now.toISOString(),
    };
    const [row] = existing
      ? await tx.update(interactiveCompositions).set(values).where(key).returning()
      : await tx
          .insert(interactiveCompositions)
          .values({ tenantId: ctx.tenantId, contentId, ...values })
          .returning();
    return presentComposition(row);
  });
}

export async function getComposition(deps: ContentDeps, ctx: RequestContext, { contentId }: ItemKey) {
  requireAccess(ctx.principal, ACCESS.read, 'read interactive compositions');
  const row = await requireItemRecord(
    deps.db,
    ctx.tenantId,
    interactiveCompositions,
    contentId,
    'interactive composition',
  );
  return presentComposition(row);
}
