import { randomUUID } from 'node:crypto';
import { count } from 'drizzle-orm';
import { z } from 'zod';
import { requireAccess } from '../../../platform/auth.ts';
import { SERVICE_ROOTS } from '../../../platform/config.ts';
import type { RequestContext } from '../../../platform/context.ts';
import type { Database } from '../../../platform/db.ts';
import type { CommandResult } from '../../../platform/idempotency.ts';
import { runCommand } from '../../../platform/commands.ts';
import { tenantRows } from '../../../platform/tenant-rows.ts';
import { timeOrderedUuid } from '../../../platform/time-ordered-uuid.ts';
import { isoTimestamp, nullMeansAbsent, parseInput } from '../../../platform/validation.ts';
import { ACCESS, boundaryOf, CHECKABLE, requireCheckable, requireWithinBoundary } from '../access.ts';
import { deriveCaliper, requireNoErrors, type DerivedCaliper } from '../caliper.ts';
import { ADAPTER_REJECTED } from '../errors.ts';
import { insertEvents, type PreparedEvent } from '../learning/events.service.ts';
import { findOrRegister } from '../sources/sources.service.ts';
import { attendanceEvents, disciplineEvents, learningEvents, sourceImports } from '../tables.ts';
import type { EventsDeps } from '../deps.ts';
import type { CommandInput } from '../inputs.ts';
import {
  ADAPTERS,
  ADAPTER_ROWS_DESCRIPTION,
  adaptRow,
  type AdapterName,
  type Normalized,
  type NormalizedAttendance,
  type NormalizedDiscipline,
  type NormalizedLearning,
} from './adapters.ts';

/**
 * Source imports: 1..1000 producer rows through one adapter, all-or-nothing in one transaction.
 * Invariant: a 200 means every accepted row was materialized and is readable by its id; any
 * rejected row means nothing was written.
 */

export const MAX_RECORDS = 1000;

export const SourceImportInput = nullMeansAbsent(
  z
    .object({
      sourceSystem: z
        .enum(['vendor_production', 'sis_system'])
        .describe('vendor_production for the vendor adapter, sis_system for the SIS ones'),
      adapter: z.enum(Object.keys(ADAPTERS) as [AdapterName, ...AdapterName[]]).describe(ADAPTER_ROWS_DESCRIPTION),
      importId: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .optional()
        .describe('Retry and correlation label (replays like an Idempotency-Key)'),
      records: z.array(z.unknown()).min(1).max(MAX_RECORDS).describe('1..1000 rows exactly as the producer emits them'),
      dryRun: z.boolean().default(false).describe('Validate only; writes nothing'),
    })
    .strict(),
).refine((input) => ADAPTERS[input.adapter].sourceSystem === input.sourceSystem, {
  path: ['sourceSystem'],
  message: 'does not match the adapter',
});

type ImportInput = z.infer<typeof SourceImportInput>;

const RESOURCE_PATH = {
  events: 'events',
  attendanceEvents: 'attendance-events',
  disciplineEvents: 'discipline-events',
} as const;

export interface ImportAnswer {
  import: {
    id: string | null;
    importId: string | null;
    status: 'materialized' | 'validated';
    adapter: AdapterName;
    sourceSystem: string;
    dryRun: boolean;
  };
  acceptedCount: number;
  materializedCount: number;
  data: Array<{ record: number; resource: Normalized['resource']; id: string; href: string }>;
}

/** Every row through the adapter and the token's boundary, before anything is written. */
function adaptAll(ctx: RequestContext, input: ImportInput): Normalized[] {
  const scope = boundaryOf(ctx.principal);
  const learning = input.adapter === 'vendor_learning_event_v1';
  requireCheckable(scope, learning ? CHECKABLE.vendorLearningRows : CHECKABLE.moments, `${input.adapter} rows`);
  const results = input.records.map((row, index) => adaptRow(input.adapter, row, index));
  requireNoErrors(
    results.flatMap((result) => result.errors),
    ADAPTER_REJECTED,
    'The adapter rejected rows; nothing was imported.',
  );
  return results.map((result, index) => {
    const row = result.value as Normalized;
    const studentField = learning ? 'user_id' : 'student_id';
    requireWithinBoundary(
      scope,
      row.resource === 'events'
        ? {
            studentIds: { field: `records.${index}.${studentField}`, value: row.studentId },
            contentIds: { field: `records.${index}.activity_id`, value: row.contentId },
          }
        : {
            studentIds: { field: `records.${index}.${studentField}`, value: row.studentId },
            orgIds: { field: `records.${index}.school_id`, value: row.schoolId },
          },
      'import records for',
    );
    return row;
  });
}

/**
 * The tenant's activity source standing for a source system, registered by the platform on first use. One the tenant
 * registered itself under that IRI is that source, whatever its name: the importer sends no name to conflict with.
 */
async function systemSource(tx: Database, ctx: RequestContext, sourceSystem: string): Promise<string> {
  const source = await findOrRegister(tx, ctx, {
    sourceIri: `urn:alpha:source-system:${sourceSystem}`,
    name: `${sourceSystem} (source imports)`,
  });
  return source.row.sourceId;
}

/** Rows in slices of at most 200, one insert each, so no statement's parameters grow with the import. */
function batches<T>(values: T[]): T[][] {
  const slices: T[][] = [];
  for (let start = 0; start < values.length; start += 200) slices.push(values.slice(start, start + 200));
  return slices;
}

/** How many rows of `table` the import wrote, counted back inside its transaction. */
async function importedCount(
  tx: Database,
  ctx: RequestContext,
  table: typeof learningEvents | typeof attendanceEvents | typeof disciplineEvents,
  importId: string,
): Promise<number> {
  const [{ value }] = await tx
    .select({ value: count() })
    .from(table)
    .where(tenantRows(table, ctx.tenantId, { importId }));
  return value;
}

async function materialize(
  tx: Database,
  ctx: RequestContext,
  input: ImportInput,
  rows: Normalized[],
): Promise<ImportAnswer> {
  const importUuid = randomUUID();
  const recordedAt = ctx.now.toISOString();
  const ids: string[] = [];
  let materializedCount: number;
  const first = rows[0].resource;
  if (first === 'events') {
    const sourceId = await systemSource(tx, ctx, input.sourceSystem);
    const prepared = (rows as NormalizedLearning[]).map((row, index): PreparedEvent => {
      const derived = deriveCaliper(
        { kind: row.kind, studentId: row.studentId, contentId: row.contentId },
        `records.${index}`,
      );
      return {
        eventId: timeOrderedUuid(),
        kind: row.kind,
        studentId: row.studentId,
        contentId: row.contentId,
        orgId: null,
        activitySourceId: sourceId,
        happenedAt: row.happenedAt,
        sourceEventId: row.sourceEventId,
        derived: derived.value as DerivedCaliper,
        extensions: {},
        rawPayload: input.records[index],
      };
    });
    ids.push(
      ...(
        await insertEvents(tx, ctx, { events: prepared, importId: importUuid, fieldOf: (index) => `records.${index}` })
      ).map((event) => event.id),
    );
    materializedCount = await importedCount(tx, ctx, learningEvents, importUuid);
  } else {
    ids.push(...rows.map(() => timeOrderedUuid()));
    // A moment row is the adapter's fields (less the resource tag) and where it came from.
    const momentRow = <Row extends NormalizedAttendance | NormalizedDiscipline>(
      { resource: _resource, ...row }: Row,
      index: number,
    ) => ({
      ...row,
      tenantId: ctx.tenantId,
      sourceSystem: input.sourceSystem,
      importId: importUuid,
      rawPayload: input.records[index],
      recordedAt,
    });
    if (first === 'attendanceEvents') {
      const values = (rows as NormalizedAttendance[]).map((row, index) => ({
        ...momentRow(row, index),
        attendanceEventId: ids[index],
      }));
      for (const batch of batches(values)) await tx.insert(attendanceEvents).values(batch);
      materializedCount = await importedCount(tx, ctx, attendanceEvents, importUuid);
    } else {
      const values = (rows as NormalizedDiscipline[]).map((row, index) => ({
        ...momentRow(row, index),
        disciplineEventId: ids[index],
      }));
      for (const batch of batches(values)) await tx.insert(disciplineEvents).values(batch);
      materializedCount = await importedCount(tx, ctx, disciplineEvents, importUuid);
    }
  }
  // Accepted rows that do not materialize are a service failure: roll the whole import back.
  if (materializedCount !== rows.length)
    throw new Error(`import ${importUuid}: ${rows.length} accepted, ${materializedCount} materialized`);
  await tx.insert(sourceImports).values({
    tenantId: ctx.tenantId,
    importId: importUuid,
    label: input.importId ?? null,
    sourceSystem: input.sourceSystem,
    adapter: input.adapter,
    status: 'materialized',
    acceptedCount: rows.length,
    materializedCount,
    createdBy: ctx.principal.subject,
    createdAt: isoTimestamp(recordedAt),
  });
  return {
    import: {
      id: importUuid,
      importId: input.importId ?? null,
      status: 'materialized',
      adapter: input.adapter,
      sourceSystem: input.sourceSystem,
      dryRun: false,
    },
    acceptedCount: rows.length,
    materializedCount,
    data: rows.map((row, index) => ({
      record: index,
      resource: row.resource,
      id: ids[index],
      href: `${SERVICE_ROOTS.events}/${RESOURCE_PATH[row.resource]}/${ids[index]}`,
    })),
  };
}

/**
 * POST /source-imports. The Idempotency-Key, or else the importId, is the retry label: the same
 * request under it answers the first import again, another request under it is 409.
 */
export async function runSourceImport(
  deps: EventsDeps,
  ctx: RequestContext,
  { body: rawInput, idempotencyKey }: CommandInput,
): Promise<CommandResult<ImportAnswer>> {
  requireAccess(ctx.principal, ACCESS.sourceImport, 'import source records');
  const input = parseInput(SourceImportInput, rawInput);
  const rows = adaptAll(ctx, input);
  if (input.dryRun) {
    return {
      value: {
        import: {
          id: null,
          importId: input.importId ?? null,
          status: 'validated',
          adapter: input.adapter,
          sourceSystem: input.sourceSystem,
          dryRun: true,
        },
        acceptedCount: rows.length,
        materializedCount: 0,
        data: [],
      },
      created: false,
      replayed: false,
    };
  }
  const key = idempotencyKey ?? (input.importId === undefined ? undefined : `importId:${input.importId}`);
  return runCommand(deps, ctx, { operation: 'events.source-import', key, sent: rawInput }, async (tx) => ({
    value: await materialize(tx, ctx, input, rows),
    created: false,
  }));
}
