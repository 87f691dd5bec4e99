import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { curriculumV1, http, sameTenant, tenantRoot, type Caller, type Reply } from '../kit.ts';
import type { RunningPlatform } from '../../gateway/platform.ts';
import { rowsOf } from '../../platform/db.ts';

/** Small builders shared by the curriculum tests: every call goes through the documented paths. */

export const key = () => ({ 'idempotency-key': randomUUID() });

export function kcBody(overrides: Record<string, unknown> = {}) {
  return {
    stored_as: 'alpha.knowledge_component',
    definition: `Recognise equal parts ${randomUUID()}`,
    alpha: {
      subject_id: 'math',
      kc_kind: 'substantive',
      positive_examples: ['3/4'],
      instructional_classification: { knowledgeType: 'conceptual' },
    },
    ...overrides,
  };
}

/** Creates a KC (always draft); one asked for `publication_status: 'published'` is then published by PATCH. */
export async function createKc(
  platform: RunningPlatform,
  caller: Caller,
  { publication_status: status, ...overrides }: Record<string, unknown> = {},
): Promise<any> {
  const reply = await http(platform, 'POST', `${curriculumV1}/kcs`, { token: caller.token, body: kcBody(overrides) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  if (status !== 'published') return reply.body;
  const published = await http(platform, 'PATCH', `${curriculumV1}/kcs/${reply.body.kc_id}`, {
    token: caller.token,
    headers: { ...key(), 'if-match': reply.body.etag },
    body: { publication_status: 'published' },
  });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  return published.body;
}

/**
 * Creates a component (always draft, as the state table says); one asked for as published is then
 * published by PATCH, a mastery_gate naming its pin and renderer again as rule 17 asks.
 */
export async function createComponent(
  platform: RunningPlatform,
  caller: Caller,
  body: Record<string, unknown>,
): Promise<any> {
  const alpha = (body.alpha ?? {}) as Record<string, unknown>;
  const publish = alpha.publication_status === 'published';
  const draft = publish ? { ...body, alpha: { ...alpha, publication_status: 'draft' } } : body;
  const reply = await http(platform, 'POST', `${curriculumV1}/components`, { token: caller.token, body: draft });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  if (!publish) return reply.body;
  const gate = body.kind === 'mastery_gate' ? { target_ref: alpha.target_ref, renderer_ref: alpha.renderer_ref } : {};
  const published = await http(platform, 'PATCH', `${curriculumV1}/components/${body.component_id as string}`, {
    token: caller.token,
    headers: { ...key(), 'x-curriculum-if-match': reply.body.etag },
    body: { alpha: { publication_status: 'published', ...gate } },
  });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  return published.body;
}

export async function addPrerequisite(
  platform: RunningPlatform,
  caller: Caller,
  prerequisite: string,
  dependent: string,
): Promise<Reply> {
  return http(platform, 'POST', `${curriculumV1}/kc-prerequisites`, {
    token: caller.token,
    headers: key(),
    body: { prerequisite_kc_id: prerequisite, dependent_kc_id: dependent },
  });
}

export function expectProblem(reply: Reply, status: number, code: string): void {
  expect([reply.status, reply.body?.code], JSON.stringify(reply.body)).toEqual([status, code]);
  expect(reply.headers.get('content-type')).toContain('application/problem+json');
}

export { rowsOf };

/** Every row of a tenant's curriculum tables, to prove a refused write left nothing behind. */
export async function tenantRowCounts(platform: RunningPlatform, tenantId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of [
    'components',
    'associations',
    'knowledge_components',
    'kc_versions',
    'kc_prerequisites',
    'kc_relations',
    'pin_audit',
  ]) {
    const result = await platform.runtime.database.db.execute(
      sql`select count(*)::int as n from ${sql.raw(`curriculum.${table}`)} where tenant_id = ${tenantId}`,
    );
    const rows = rowsOf<{ n: number }>(result);
    counts[table] = Number(rows[0].n);
  }
  return counts;
}

/** A second exact version of an existing item, trusted by another identity. */
export async function trustedNewVersion(platform: RunningPlatform, author: Caller, contentId: string): Promise<string> {
  const version = await http(platform, 'POST', `${tenantRoot(author.tenantId)}/items/${contentId}/versions`, {
    token: author.token,
    body: { student_view: { blocks: [{ type: 'text', text: 'Second body', order: 0 }] } },
  });
  expect(version.status, JSON.stringify(version.body)).toBe(201);
  const reviewer = await sameTenant(platform, author);
  const qc = await http(
    platform,
    'POST',
    `${tenantRoot(author.tenantId)}/items/${contentId}/versions/${version.body.version_id}/qc-decisions`,
    {
      token: reviewer.token,
      body: { trust_status: 'trusted', reason: 'reviewed' },
    },
  );
  expect(qc.status, JSON.stringify(qc.body)).toBe(201);
  return version.body.version_id as string;
}

export function pinOf(version: { contentId: string; versionId: string; contentKind: string }) {
  return {
    module: 'content',
    content_kind: version.contentKind,
    content_id: version.contentId,
    content_version_id: version.versionId,
  };
}

export async function readComponent(platform: RunningPlatform, caller: Caller, componentId: string): Promise<Reply> {
  return http(platform, 'GET', `${curriculumV1}/components/${componentId}`, { token: caller.token });
}

/** SHA-256 of the canonical JSON (RFC 8785) of a value, written apart from the service's own. */
export function checksumOf(value: unknown): string {
  const sorted = (item: unknown): unknown =>
    Array.isArray(item)
      ? item.map(sorted)
      : item && typeof item === 'object'
        ? Object.fromEntries(
            Object.keys(item)
              .sort()
              .map((name) => [name, sorted((item as Record<string, unknown>)[name])]),
          )
        : item;
  return createHash('sha256')
    .update(JSON.stringify(sorted(value)))
    .digest('hex');
}

/** A small CASE 1.1 package: one document, standards S1 and S2 under it. */
export function casePackage(overrides: { identifier?: string; title?: string; subject?: string[] } = {}) {
  const identifier = overrides.identifier ?? randomUUID();
  const item = (code: string) => ({
    identifier: randomUUID(),
    uri: `https://example.org/case/${code}`,
    humanCodingScheme: code,
    fullStatement: `Standard ${code}`,
    educationLevel: ['03'],
    lastChangeDateTime: '2026-01-01T00:00:00Z',
    CFDocumentURI: { identifier, title: 'Doc', uri: `https://example.org/case/${identifier}` },
  });
  const items = [item('S1'), item('S2')];
  return {
    CFDocument: {
      identifier,
      uri: `https://example.org/case/${identifier}`,
      title: overrides.title ?? 'Fractions standards',
      creator: 'Example',
      caseVersion: '1.1',
      subject: overrides.subject ?? ['Math'],
      language: 'en',
      version: '1',
      lastChangeDateTime: '2026-01-01T00:00:00Z',
    },
    CFItems: items,
    CFAssociations: items.map((child, index) => ({
      identifier: randomUUID(),
      associationType: 'isChildOf',
      uri: `https://example.org/case/associations/${index}`,
      lastChangeDateTime: '2026-01-01T00:00:00Z',
      originNodeURI: { identifier: child.identifier, title: child.humanCodingScheme, uri: child.uri },
      destinationNodeURI: { identifier, title: 'Doc', uri: `https://example.org/case/${identifier}` },
      sequenceNumber: index + 1,
    })),
  };
}

export async function importStandards(
  platform: RunningPlatform,
  caller: Caller,
  pkg: unknown,
  maps: unknown[] = [],
  headers: Record<string, string> = {},
): Promise<Reply> {
  return http(platform, 'POST', `${curriculumV1}/standards-frameworks/import`, {
    token: caller.token,
    headers,
    body: { checksum_sha256: checksumOf(pkg), package: pkg, standard_kc_maps: maps },
  });
}
