import { z } from 'zod';
import { isUuid } from '../../../platform/validation.ts';
import type { Database } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { requireAccess } from '../../../platform/auth.ts';
import { DomainError } from '../../../platform/errors.ts';
import { testSpecBlueprints } from '../tables.ts';
import { DOK_LEVELS } from '../vocabulary.ts';
import { ACCESS } from '../access.ts';
import type { ContentDeps } from '../deps.ts';
import { tenantRows } from '../../../platform/tenant-rows.ts';
import type { ItemKey } from '../inputs.ts';

/**
 * test_spec blueprints: the seven fields, all required, written once with the item in the item's
 * create transaction. Counts are positive integers and the item_type_mix total equals the
 * kc_coverage total exactly.
 */

const positiveCount = z.number().int().positive();
/**
 * A kc reference or item type as sent: trimmed, ' k' and 'k' became one key and the counts of one of them were
 * silently lost (and the totals compared without them).
 */
const blueprintKey = z.string().regex(/^\S(?:[\s\S]*\S)?$/, 'a non-empty key without leading or trailing white space');
const jsonObject = z.record(z.string(), z.unknown());

export const BLUEPRINT_FIELDS = [
  'kc_coverage',
  'item_type_mix',
  'difficulty_constraints',
  'passing_rule',
  'min_forms',
  'max_item_overlap',
  'enemy_item_rule',
] as const;

export const Blueprint = z
  .object({
    kc_coverage: z
      .record(
        blueprintKey,
        z
          .partialRecord(z.enum(DOK_LEVELS), positiveCount)
          .refine((counts) => Object.keys(counts).length > 0, 'at least one dok count'),
      )
      .refine((coverage) => Object.keys(coverage).length > 0, 'at least one kc reference'),
    item_type_mix: z
      .record(blueprintKey, positiveCount)
      .refine((mix) => Object.keys(mix).length > 0, 'at least one item type'),
    difficulty_constraints: jsonObject,
    passing_rule: jsonObject,
    min_forms: z.int32().positive(),
    max_item_overlap: z.number().min(0).max(1).describe('Largest share of items two forms may have in common'),
    enemy_item_rule: jsonObject,
  })
  .superRefine((blueprint, issues) => {
    const coverageTotal = totalOf(Object.values(blueprint.kc_coverage).flatMap((counts) => Object.values(counts)));
    const mixTotal = totalOf(Object.values(blueprint.item_type_mix));
    if (coverageTotal !== mixTotal) {
      issues.addIssue({
        code: 'custom',
        path: ['item_type_mix'],
        message: `totals ${mixTotal}, kc_coverage totals ${coverageTotal}; they must be equal`,
      });
    }
  });
export type Blueprint = z.infer<typeof Blueprint>;

function totalOf(counts: Array<number | undefined>): number {
  return counts.reduce<number>((sum, count) => sum + (count ?? 0), 0);
}

export async function insertBlueprint(
  tx: Database,
  ctx: RequestContext,
  { contentId, blueprint }: { contentId: string; blueprint: Blueprint },
): Promise<void> {
  await tx.insert(testSpecBlueprints).values({
    tenantId: ctx.tenantId,
    contentId,
    kcCoverage: blueprint.kc_coverage,
    itemTypeMix: blueprint.item_type_mix,
    difficultyConstraints: blueprint.difficulty_constraints,
    passingRule: blueprint.passing_rule,
    minForms: blueprint.min_forms,
    maxItemOverlap: blueprint.max_item_overlap,
    enemyItemRule: blueprint.enemy_item_rule,
    createdAt: ctx.now.toISOString(),
  });
}

export type BlueprintRow = typeof testSpecBlueprints.$inferSelect;

export function presentBlueprint(row: BlueprintRow) {
  return {
    spec_id: row.contentId,
    content_id: row.contentId,
    kc_coverage: row.kcCoverage as Blueprint['kc_coverage'],
    item_type_mix: row.itemTypeMix as Blueprint['item_type_mix'],
    difficulty_constraints: row.difficultyConstraints as Record<string, unknown>,
    passing_rule: row.passingRule as Record<string, unknown>,
    min_forms: row.minForms,
    max_item_overlap: row.maxItemOverlap,
    enemy_item_rule: row.enemyItemRule as Record<string, unknown>,
  };
}
export type TestSpec = ReturnType<typeof presentBlueprint>;

async function findBlueprintRow(db: Database, tenantId: string, contentId: string): Promise<BlueprintRow | undefined> {
  const [row] = await db
    .select()
    .from(testSpecBlueprints)
    .where(tenantRows(testSpecBlueprints, tenantId, { contentId }));
  return row;
}

export async function getBlueprint(deps: ContentDeps, ctx: RequestContext, { contentId }: ItemKey): Promise<TestSpec> {
  requireAccess(ctx.principal, ACCESS.read, 'read blueprints');
  // Items other than test_specs have no blueprint: the same 404 as an unknown item.
  const row = isUuid(contentId) ? await findBlueprintRow(deps.db, ctx.tenantId, contentId) : undefined;
  if (!row) throw new DomainError('not_found', `No test_spec ${contentId} with a blueprint in this tenant.`);
  return presentBlueprint(row);
}
