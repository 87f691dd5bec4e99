import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../../platform/db.ts';
import type { RequestContext } from '../../../platform/context.ts';
import { allows, requireAccess } from '../../../platform/auth.ts';
import { parseInput, queryBoolean, uuidRef } from '../../../platform/validation.ts';
import { answerSlots, assessmentComponents, scoringPlans } from '../tables.ts';
import { COMPONENT_ROLES } from '../vocabulary.ts';
import { ACCESS } from '../access.ts';
import type { ContentDeps } from '../deps.ts';
import type { QuestionProjection } from './canonical-xml.ts';
import { isAnswerKeyRubric } from './answer-key-redaction.ts';
import { resolveVersion, wholeList } from '../queries.ts';
import { tenantRows } from '../../../platform/tenant-rows.ts';
import type { ItemRead } from '../inputs.ts';

/**
 * Reads of what a student sees and of a question version's projections. Answer keys leave the
 * service only for a caller holding read:answer_key who asked for them; the projections of an
 * exact version never change (they are written with the version, see versions.service).
 */

/** Writes the projections of one question version, inside the version's own transaction. */
export async function insertProjections(
  tx: Database,
  ctx: RequestContext,
  { contentId, versionId, projection }: { contentId: string; versionId: string; projection: QuestionProjection },
): Promise<void> {
  const tenantId = ctx.tenantId;
  await tx.insert(answerSlots).values(
    projection.answer_slots.map((slot) => ({
      tenantId,
      versionId,
      contentId,
      responseIdentifier: slot.response_identifier,
      ordinal: slot.ordinal,
      interactionType: slot.interaction_type,
      qtiCardinality: slot.qti_cardinality,
      qtiBaseType: slot.qti_base_type,
      choices: slot.choices,
      correctValues: slot.correct_values,
    })),
  );
  await tx.insert(assessmentComponents).values(
    projection.components.map((component) => ({
      tenantId,
      versionId,
      contentId,
      componentId: randomUUID(),
      ordinal: component.ordinal,
      componentRole: component.component_role,
      identifier: component.identifier,
      parentIdentifier: component.parent_identifier,
      text: component.text,
      view: component.view,
    })),
  );
  if (projection.scoring.length > 0) {
    await tx.insert(scoringPlans).values(
      projection.scoring.map((plan) => ({
        tenantId,
        versionId,
        contentId,
        ordinal: plan.ordinal,
        scoringRuleScope: plan.scoring_rule_scope,
        identifier: plan.identifier,
        qtiCardinality: plan.qti_cardinality,
        qtiBaseType: plan.qti_base_type,
        template: plan.template,
      })),
    );
  }
}

type SlotRow = typeof answerSlots.$inferSelect;

function presentSlot(row: SlotRow, withKeys: boolean) {
  return {
    content_id: row.contentId,
    version_id: row.versionId,
    response_identifier: row.responseIdentifier,
    ordinal: row.ordinal,
    interaction_type: row.interactionType,
    qti_cardinality: row.qtiCardinality,
    qti_base_type: row.qtiBaseType,
    choices: row.choices as Array<{ identifier: string; text: string }>,
    ...(withKeys
      ? { correct_response: row.correctValues === null ? null : { values: row.correctValues as string[] } }
      : {}),
  };
}

function presentKey(row: SlotRow) {
  return {
    content_id: row.contentId,
    version_id: row.versionId,
    response_identifier: row.responseIdentifier,
    qti_cardinality: row.qtiCardinality,
    qti_base_type: row.qtiBaseType,
    correct_response: { values: (row.correctValues as string[] | null) ?? [] },
  };
}

const versionIdParam = uuidRef().optional().describe('An exact version; the newest when absent');

function requireKeysAccess(ctx: RequestContext, wanted: boolean): boolean {
  if (wanted) requireAccess(ctx.principal, ACCESS.answerKeys, 'read answer keys');
  return wanted;
}

async function slotRows(db: Database, tenantId: string, versionId: string): Promise<SlotRow[]> {
  return db
    .select()
    .from(answerSlots)
    .where(tenantRows(answerSlots, tenantId, { versionId }))
    .orderBy(asc(answerSlots.ordinal));
}

export const StudentViewQuery = z
  .object({
    version_id: versionIdParam,
    includeAnswerKeys: queryBoolean
      .optional()
      .describe('true adds the answer keys, and needs the scope read:answer_key; false when omitted'),
  })
  .strict();

export async function readStudentView(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentId, query: rawQuery }: ItemRead,
) {
  requireAccess(ctx.principal, ACCESS.read, 'read student views');
  const { db } = deps;
  const query = parseInput(StudentViewQuery, rawQuery);
  const withKeys = requireKeysAccess(ctx, query.includeAnswerKeys === true);
  const { item, version } = await resolveVersion(db, ctx.tenantId, contentId, query.version_id);
  const slots = await slotRows(db, ctx.tenantId, version.versionId);
  const view = version.studentView as { blocks: Array<{ order: number }> };
  return {
    content_id: contentId,
    version_id: version.versionId,
    version_number: version.versionNumber,
    content_kind: item.kind,
    title: item.title,
    blocks: [...view.blocks].sort((a, b) => a.order - b.order),
    answer_slots: slots.map((row) => presentSlot(row, withKeys)),
    answer_keys_included: withKeys,
  };
}

export const AnswerSlotsQuery = StudentViewQuery;

export async function listAnswerSlots(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentId, query: rawQuery }: ItemRead,
) {
  requireAccess(ctx.principal, ACCESS.read, 'read answer slots');
  const { db } = deps;
  const query = parseInput(AnswerSlotsQuery, rawQuery);
  const withKeys = requireKeysAccess(ctx, query.includeAnswerKeys === true);
  const { version } = await resolveVersion(db, ctx.tenantId, contentId, query.version_id);
  return wholeList((await slotRows(db, ctx.tenantId, version.versionId)).map((row) => presentSlot(row, withKeys)));
}

export const VersionQuery = z.object({ version_id: versionIdParam }).strict();

export async function listAnswerKeys(deps: ContentDeps, ctx: RequestContext, { contentId, query: rawQuery }: ItemRead) {
  requireAccess(ctx.principal, ACCESS.answerKeys, 'read answer keys');
  const { db } = deps;
  const query = parseInput(VersionQuery, rawQuery);
  const { version } = await resolveVersion(db, ctx.tenantId, contentId, query.version_id);
  return wholeList(
    (await slotRows(db, ctx.tenantId, version.versionId)).filter((row) => row.correctValues !== null).map(presentKey),
  );
}

export const ComponentsQuery = z
  .object({
    version_id: versionIdParam,
    component_role: z
      .enum(COMPONENT_ROLES)
      .optional()
      .describe('Only this role: question, distractor, rubric or preauthored_feedback'),
  })
  .strict();

export async function listAssessmentComponents(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentId, query: rawQuery }: ItemRead,
) {
  requireAccess(ctx.principal, ACCESS.read, 'read assessment components');
  const { db } = deps;
  const query = parseInput(ComponentsQuery, rawQuery);
  const { version } = await resolveVersion(db, ctx.tenantId, contentId, query.version_id);
  const rows = await db
    .select()
    .from(assessmentComponents)
    .where(
      tenantRows(
        assessmentComponents,
        ctx.tenantId,
        { versionId: version.versionId },
        ...(query.component_role ? [eq(assessmentComponents.componentRole, query.component_role)] : []),
      ),
    )
    .orderBy(asc(assessmentComponents.ordinal));
  // Distractor text would hint at the key, and a scorer's rubric states it; they are shown with the keys only.
  const withKeys = allows(ctx.principal, ACCESS.answerKeys);
  const revealsKey = (row: typeof assessmentComponents.$inferSelect) =>
    row.componentRole === 'distractor' || (row.componentRole === 'rubric' && isAnswerKeyRubric(row.view));
  return wholeList(
    rows.map((row) => ({
      component_id: row.componentId,
      content_id: row.contentId,
      version_id: row.versionId,
      ordinal: row.ordinal,
      component_role: row.componentRole,
      identifier: row.identifier,
      parent_identifier: row.parentIdentifier,
      text: withKeys || !revealsKey(row) ? row.text : null,
    })),
  );
}

export async function listScoringPlan(
  deps: ContentDeps,
  ctx: RequestContext,
  { contentId, query: rawQuery }: ItemRead,
) {
  requireAccess(ctx.principal, ACCESS.read, 'read scoring plans');
  const { db } = deps;
  const query = parseInput(VersionQuery, rawQuery);
  const { version } = await resolveVersion(db, ctx.tenantId, contentId, query.version_id);
  const rows = await db
    .select()
    .from(scoringPlans)
    .where(tenantRows(scoringPlans, ctx.tenantId, { versionId: version.versionId }))
    .orderBy(asc(scoringPlans.ordinal));
  return wholeList(
    rows.map((row) => ({
      content_id: row.contentId,
      version_id: row.versionId,
      ordinal: row.ordinal,
      scoring_rule_scope: row.scoringRuleScope,
      identifier: row.identifier,
      qti_cardinality: row.qtiCardinality,
      qti_base_type: row.qtiBaseType,
      template: row.template,
    })),
  );
}
