import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { curriculumV1, http, newTenant, type Caller } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import { key } from './helpers.ts';

/**
 * The component lifecycle as a property: any sequence of create, PATCH, reparent, retire and
 * re-POST keeps the parent field, the parentId and courseId lists, the trees and the isChildOf
 * associations in agreement, and every component or edge that changed carries a new ETag.
 */

const it = platformTest();
const componentsUrl = `${curriculumV1}/components`;
const IDS = ['a', 'b', 'c', 'd', 'e'] as const;

const command = fc.oneof(
  fc.record({
    op: fc.constant('post' as const),
    id: fc.constantFrom(...IDS),
    parent: fc.option(fc.constantFrom(...IDS)),
  }),
  fc.record({ op: fc.constant('rename' as const), id: fc.constantFrom(...IDS), name: fc.constantFrom('x', 'y') }),
  fc.record({ op: fc.constant('reparent' as const), id: fc.constantFrom(...IDS), parent: fc.constantFrom(...IDS) }),
  fc.record({ op: fc.constant('retire' as const), id: fc.constantFrom(...IDS) }),
);
type Command = typeof command extends fc.Arbitrary<infer T> ? T : never;

/** Every id created first, each under an earlier one or as a root, so later steps meet real trees. */
const initialTree = fc.tuple(
  ...IDS.map((id, index) =>
    fc
      .option(fc.constantFrom(...IDS.slice(0, Math.max(index, 1))), { nil: null, freq: index === 0 ? 1 : 4 })
      .map((parent): Command => ({ op: 'post', id, parent: index === 0 ? null : parent })),
  ),
);

async function get(caller: Caller, path: string): Promise<any> {
  const reply = await http(filePlatform(), 'GET', `${curriculumV1}${path}`, { token: caller.token });
  expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBe(200);
  return reply.body;
}

const ids = (page: any): string[] => page.data.map((row: any) => row.component_id).sort();

async function run(caller: Caller, step: Command): Promise<number> {
  const current = await http(filePlatform(), 'GET', `${componentsUrl}/${step.id}`, { token: caller.token });
  const send = (method: 'PATCH' | 'DELETE', body?: unknown) =>
    http(filePlatform(), method, `${componentsUrl}/${step.id}`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': current.body.etag ?? '"none"' },
      body,
    });
  if (step.op === 'post') {
    const body = { component_id: step.id, kind: 'unit', ...(step.parent ? { parent_component_id: step.parent } : {}) };
    return (await http(filePlatform(), 'POST', componentsUrl, { token: caller.token, body })).status;
  }
  if (current.status === 404) return 404;
  if (step.op === 'rename') return (await send('PATCH', { name: step.name })).status;
  if (step.op === 'reparent') return (await send('PATCH', { parent_component_id: step.parent })).status;
  return (await send('DELETE')).status;
}

/**
 * The isChildOf associations agree with the components' parent fields; with `reads`, so do the
 * parentId and courseId lists and the trees (asked at the end of a sequence, to keep runs short).
 */
async function expectOneTruth(caller: Caller, reads: boolean): Promise<Map<string, any>> {
  const all = (await get(caller, '/components?includeRetired=true&limit=100')).data as any[];
  const allEdges = (await get(caller, '/associations?associationType=isChildOf&includeRetired=true&limit=100'))
    .data as any[];
  const byId = new Map(all.map((row) => [row.component_id, row]));
  const active = all.filter((row) => row.status === 'active');
  const edges = allEdges.filter((edge) => edge.status === 'active');
  const childOf = new Map(active.filter((row) => row.parent_component_id).map((row) => [row.component_id, row]));
  expect(edges.map((edge) => edge.originId).sort()).toEqual([...childOf.keys()].sort());
  for (const edge of edges) {
    const child = childOf.get(edge.originId);
    expect([edge.destinationId, edge.sequence_number]).toEqual([child.parent_component_id, child.position]);
    expect(byId.get(edge.destinationId)?.status).toBe('active');
  }
  const subtree = (rootId: string): string[] => [
    rootId,
    ...active.filter((row) => row.parent_component_id === rootId).flatMap((row) => subtree(row.component_id)),
  ];
  const flatten = (node: any): string[] => [node.component_id, ...node.children.flatMap(flatten)];
  for (const row of reads ? active : []) {
    const children = active.filter((other) => other.parent_component_id === row.component_id);
    expect(ids(await get(caller, `/components?parentId=${row.component_id}`))).toEqual(
      children.map((child) => child.component_id).sort(),
    );
    if (row.parent_component_id === null) {
      const tree = await get(caller, `/components/${row.component_id}/tree`);
      expect(flatten(tree).sort()).toEqual(subtree(row.component_id).sort());
      expect(ids(await get(caller, `/components?courseId=${row.component_id}&limit=100`))).toEqual(
        subtree(row.component_id).sort(),
      );
    }
  }
  return new Map<string, any>([
    ...all.map((row): [string, any] => [row.component_id, row]),
    ...allEdges.map((edge): [string, any] => [edge.association_id, edge]),
  ]);
}

/** A resource whose fields changed carries a new ETag (version and timestamps aside). */
function expectNewEtags(before: Map<string, any>, after: Map<string, any>): void {
  const fields = (row: any) =>
    JSON.stringify({ ...row, etag: undefined, version: undefined, updated_at: undefined, retired_at: undefined });
  for (const [id, now] of after) {
    const was = before.get(id);
    if (was && fields(was) !== fields(now)) {
      expect(now.etag, `${id} changed without a new ETag`).not.toBe(was.etag);
    }
  }
}

describe('component lifecycle property', () => {
  it('create, PATCH, reparent, retire and re-POST keep one containment truth and fresh ETags', async ({ platform }) => {
    await fc.assert(
      fc.asyncProperty(initialTree, fc.array(command, { minLength: 1, maxLength: 10 }), async (setup, steps) => {
        const caller = await newTenant(platform);
        let seen = await expectOneTruth(caller, false);
        for (const step of [...setup, ...steps]) {
          const status = await run(caller, step);
          expect(status, JSON.stringify(step)).toBeLessThan(500);
          const now = await expectOneTruth(caller, false);
          expectNewEtags(seen, now);
          seen = now;
        }
        await expectOneTruth(caller, true);
      }),
      { numRuns: 15, seed: 15 },
    );
  }, 60_000);
});
