import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { canonicalJson } from '../../platform/idempotency.ts';
import { describe, expect, it } from 'vitest';
import {
  courseGraph,
  courseOrder,
  kcSnapshotSha256,
  type GraphNode,
} from '../../subgraphs/curriculum/approvals/course-graph.ts';
import { nextLessonRoute, routeAlong } from '../../subgraphs/curriculum/routing/next-lesson.route.ts';

/** The canonical course-graph and KC-snapshot digests: pure, order-independent, change-sensitive. */

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const KINDS = ['unit', 'lesson', 'practice', 'review', 'mastery_gate'] as const;

/** A random course: node i > 0 hangs under an earlier node, so the input is always a tree rooted at n0. */
const courseArbitrary = fc
  .array(
    fc.record({
      parent: fc.nat(),
      position: fc.nat({ max: 6 }),
      kind: fc.constantFrom(...KINDS),
      published: fc.boolean(),
      pinned: fc.boolean(),
      version: fc.nat({ max: 3 }),
      kcs: fc.uniqueArray(fc.nat({ max: 4 }), { maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 25 },
  )
  .map((specs): GraphNode[] => [
    {
      component_id: 'n0',
      kind: 'course',
      parent_component_id: null,
      position: null,
      alpha: { publication_status: 'published' },
    },
    ...specs.map((spec, index) => ({
      component_id: `n${index + 1}`,
      kind: spec.kind,
      parent_component_id: `n${spec.parent % (index + 1)}`,
      position: spec.position,
      alpha: {
        publication_status: spec.published ? 'published' : 'draft',
        scope_kc_refs: spec.kcs.map(uuid),
        ...(spec.pinned
          ? {
              target_ref: {
                module: 'content',
                content_kind: 'article',
                content_id: uuid(100),
                content_version_id: uuid(200 + spec.version),
              },
            }
          : {}),
      },
    })),
  ]);

const shuffled = <T>(items: readonly T[], seed: number): T[] => {
  const copy = [...items];
  let state = seed || 1;
  for (let index = copy.length - 1; index > 0; index -= 1) {
    state = (state * 48271) % 2147483647;
    const other = state % (index + 1);
    [copy[index], copy[other]] = [copy[other], copy[index]];
  }
  return copy;
};

describe('course graph digest', () => {
  it('is the SHA-256 of the canonical JSON (sorted keys) of the canonical graph', () => {
    fc.assert(
      fc.property(courseArbitrary, (nodes) => {
        const { json, sha256 } = courseGraph(nodes, 'n0');
        const canonical = canonicalJson(JSON.parse(json));
        expect(json).toBe(canonical);
        expect(sha256).toBe(createHash('sha256').update(canonical).digest('hex'));
      }),
    );
  });

  it('is stable under any reordering of equal input', () => {
    fc.assert(
      fc.property(courseArbitrary, fc.integer({ min: 1, max: 2 ** 30 }), (nodes, seed) => {
        expect(courseGraph(shuffled(nodes, seed), 'n0').sha256).toBe(courseGraph(nodes, 'n0').sha256);
      }),
    );
  });

  it('changes with any change of structure, order, pin, KC reference, publication state or membership', () => {
    type Change = (nodes: GraphNode[], at: number) => GraphNode[] | undefined;
    const edit = (nodes: GraphNode[], at: number, change: (node: GraphNode) => GraphNode) =>
      nodes.map((node, index) => (index === at ? change(node) : node));
    const changes: Record<string, Change> = {
      publication: (nodes, at) =>
        edit(nodes, at, (node) => ({
          ...node,
          alpha: {
            ...node.alpha,
            publication_status: node.alpha.publication_status === 'published' ? 'draft' : 'published',
          },
        })),
      repoint: (nodes, at) =>
        edit(nodes, at, (node) => ({
          ...node,
          alpha: {
            ...node.alpha,
            target_ref: { content_kind: 'article', content_id: uuid(100), content_version_id: uuid(999) },
          },
        })),
      kcRef: (nodes, at) =>
        edit(nodes, at, (node) => ({
          ...node,
          alpha: {
            ...node.alpha,
            scope_kc_refs: [...((node.alpha.scope_kc_refs as string[] | undefined) ?? []), uuid(77)],
          },
        })),
      kind: (nodes, at) =>
        at === 0
          ? undefined
          : edit(nodes, at, (node) => ({ ...node, kind: node.kind === 'lesson' ? 'review' : 'lesson' })),
      newChild: (nodes, at) => [
        ...nodes,
        { component_id: 'added', kind: 'lesson', parent_component_id: nodes[at].component_id, position: 0, alpha: {} },
      ],
      retiredChild: (nodes, at) =>
        at === 0
          ? undefined
          : nodes.filter(
              (node) =>
                node.component_id !== nodes[at].component_id && node.parent_component_id !== nodes[at].component_id,
            ),
      reparent: (nodes, at) => {
        const node = nodes[at];
        const below = new Set(courseOrder(nodes, node.component_id).map((entry) => entry.node.component_id));
        const target = nodes.find(
          (other) => !below.has(other.component_id) && other.component_id !== node.parent_component_id,
        );
        return at === 0 || !target
          ? undefined
          : edit(nodes, at, (item) => ({ ...item, parent_component_id: target.component_id }));
      },
      reorder: (nodes, at) => {
        const siblings = nodes.filter((node) => node.parent_component_id === nodes[at].parent_component_id);
        const order = courseOrder(nodes, 'n0').map((entry) => entry.node.component_id);
        const first = siblings.sort((a, b) => order.indexOf(a.component_id) - order.indexOf(b.component_id))[0];
        if (at === 0 || first.component_id === nodes[at].component_id) return undefined;
        return edit(nodes, at, (node) => ({ ...node, position: -1 }));
      },
    };
    fc.assert(
      fc.property(courseArbitrary, fc.nat(), fc.constantFrom(...Object.keys(changes)), (nodes, pick, name) => {
        const changed = changes[name](nodes, pick % nodes.length);
        fc.pre(changed !== undefined);
        expect(courseGraph(changed as GraphNode[], 'n0').sha256).not.toBe(courseGraph(nodes, 'n0').sha256);
      }),
    );
  });

  it('serializes nodes in course order with sibling ordinals and exact pins only', () => {
    const { json } = courseGraph(
      [
        {
          component_id: 'b',
          kind: 'lesson',
          parent_component_id: 'c',
          position: 1,
          alpha: {
            target_ref: {
              module: 'content',
              content_kind: 'article',
              content_id: uuid(1),
              content_version_id: uuid(2),
            },
          },
        },
        {
          component_id: 'a',
          kind: 'lesson',
          parent_component_id: 'c',
          position: 1,
          alpha: { publication_status: 'published' },
        },
        { component_id: 'c', kind: 'course', parent_component_id: null, position: null, student_id: 's1', alpha: {} },
      ],
      'c',
    );
    expect(JSON.parse(json)).toEqual({
      format: 'alpha.course_graph/1',
      course_id: 'c',
      nodes: [
        {
          component_id: 'c',
          kind: 'course',
          parent_component_id: null,
          ordinal: 0,
          student_id: 's1',
          publication_status: 'draft',
          target_ref: null,
          scope_kc_refs: [],
          remediation_kc_refs: [],
          kc_scope_decision: null,
        },
        {
          component_id: 'a',
          kind: 'lesson',
          parent_component_id: 'c',
          ordinal: 0,
          student_id: null,
          publication_status: 'published',
          target_ref: null,
          scope_kc_refs: [],
          remediation_kc_refs: [],
          kc_scope_decision: null,
        },
        {
          component_id: 'b',
          kind: 'lesson',
          parent_component_id: 'c',
          ordinal: 1,
          student_id: null,
          publication_status: 'draft',
          target_ref: { content_kind: 'article', content_id: uuid(1), content_version_id: uuid(2) },
          scope_kc_refs: [],
          remediation_kc_refs: [],
          kc_scope_decision: null,
        },
      ],
    });
  });
});

describe('KC snapshot digest', () => {
  it('is the same for the same exact version set in any order and changes with any version', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat({ max: 50 }), { minLength: 1, maxLength: 10 }), fc.nat(), (kcs, pick) => {
        const set = kcs.map((kc) => ({ kc_id: uuid(kc), kc_version_id: uuid(1000 + kc) }));
        expect(kcSnapshotSha256([...set].reverse())).toBe(kcSnapshotSha256(set));
        const bumped = set.map((entry, index) =>
          index === pick % set.length ? { ...entry, kc_version_id: uuid(5000) } : entry,
        );
        expect(kcSnapshotSha256(bumped)).not.toBe(kcSnapshotSha256(set));
        expect(kcSnapshotSha256(set.slice(1))).not.toBe(kcSnapshotSha256(set));
      }),
    );
  });
});

describe('next-lesson route', () => {
  it('never returns a node that is not published with all its ancestors, nor one after a blocked node', () => {
    fc.assert(
      fc.property(courseArbitrary, fc.integer({ min: 1, max: 2 ** 30 }), (nodes, seed) => {
        const route = nextLessonRoute(courseGraph(shuffled(nodes, seed), 'n0').firstRoutable);
        const byId = new Map(nodes.map((node) => [node.component_id, node]));
        if (route.outcome !== 'route') return;
        const chain: GraphNode[] = [];
        for (
          let at: GraphNode | undefined = route.node;
          at;
          at = at.parent_component_id ? byId.get(at.parent_component_id) : undefined
        )
          chain.push(at);
        expect(chain.at(-1)?.component_id).toBe('n0');
        expect(chain.every((node) => node.alpha.publication_status === 'published')).toBe(true);
        const order = courseOrder(nodes, 'n0').map((entry) => entry.node);
        const earlier = order.slice(0, order.indexOf(byId.get(route.node.component_id) as GraphNode));
        expect(
          earlier.some(
            (node) =>
              ['lesson', 'practice', 'review', 'mastery_gate'].includes(node.kind) &&
              node.alpha.target_ref &&
              (node.alpha.scope_kc_refs as string[]).length > 0,
          ),
        ).toBe(false);
      }),
    );
  });

  it('from the first routable node an approval records, its parent-pointer ancestry routes as the whole subtree does', () => {
    fc.assert(
      fc.property(courseArbitrary, fc.integer({ min: 1, max: 2 ** 30 }), (nodes, seed) => {
        const subtree = shuffled(nodes, seed);
        const recorded = courseGraph(subtree, 'n0').firstRoutable;
        const whole = nextLessonRoute(recorded);
        if (!recorded) {
          expect(whole.outcome).toBe('structure_missing');
          return;
        }
        // What next-lesson reads on an unchanged graph: the recorded node and its ancestors by parent pointer.
        const byId = new Map(nodes.map((node) => [node.component_id, node]));
        const ancestors: GraphNode[] = [];
        for (
          let at = byId.get(recorded.node.parent_component_id ?? '');
          at;
          at = byId.get(at.parent_component_id ?? '')
        )
          ancestors.unshift(at);
        expect(routeAlong(recorded.node, ancestors)).toEqual(whole);
      }),
    );
  });
});
