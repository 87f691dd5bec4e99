import { createHash } from 'node:crypto';
import { CONTENT_BEARING_KINDS } from '../components/components.schema.ts';

/**
 * The one canonical serialization of a course graph and of its exact KC-version set, and the
 * SHA-256 digests over them that approvals record and routing compares. Pure: the same nodes in any
 * input order give the same bytes; any change of structure, sibling order, pin, KC reference or
 * publication state gives other bytes. docs/decisions.md describes the format.
 */

export interface GraphNode {
  component_id: string;
  kind: string;
  parent_component_id: string | null;
  position: number | null;
  student_id?: string | null;
  alpha: Record<string, unknown>;
}

export interface KcVersionRef {
  kc_id: string;
  kc_version_id: string;
}

interface TargetRefShape {
  content_kind: string;
  content_id: string;
  content_version_id: string;
}

const bySiblingOrder = (a: GraphNode, b: GraphNode) =>
  (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER) ||
  (a.component_id < b.component_id ? -1 : a.component_id > b.component_id ? 1 : 0);

export interface OrderedNode<N extends GraphNode> {
  node: N;
  /** Index among its siblings in sibling order. */
  ordinal: number;
  /** Containment ancestors, course root first. */
  ancestors: N[];
}

/** The subtree under rootId in course order: depth first, siblings by (position, component_id). */
export function courseOrder<N extends GraphNode>(nodes: readonly N[], rootId: string): OrderedNode<N>[] {
  const children = new Map<string, N[]>();
  for (const node of nodes) {
    if (node.parent_component_id === null || node.component_id === rootId) continue;
    const siblings = children.get(node.parent_component_id) ?? [];
    siblings.push(node);
    children.set(node.parent_component_id, siblings);
  }
  const root = nodes.find((node) => node.component_id === rootId);
  if (!root) return [];
  const ordered: OrderedNode<N>[] = [];
  const stack: OrderedNode<N>[] = [{ node: root, ordinal: 0, ancestors: [] }];
  while (stack.length > 0) {
    const current = stack.pop() as OrderedNode<N>;
    ordered.push(current);
    const below = [...(children.get(current.node.component_id) ?? [])].sort(bySiblingOrder);
    const ancestors = [...current.ancestors, current.node];
    for (let index = below.length - 1; index >= 0; index -= 1)
      stack.push({ node: below[index], ordinal: index, ancestors });
  }
  return ordered;
}

function pinOf(alpha: Record<string, unknown>): TargetRefShape | null {
  const ref = alpha.target_ref as TargetRefShape | undefined;
  return ref
    ? { content_id: ref.content_id, content_kind: ref.content_kind, content_version_id: ref.content_version_id }
    : null;
}

const scopeOf = (alpha: Record<string, unknown>) => (alpha.scope_kc_refs as string[] | undefined) ?? [];
const remediationOf = (alpha: Record<string, unknown>) =>
  ((alpha.remediation_entries as Array<{ kc_ref: string }> | undefined) ?? []).map((entry) => entry.kc_ref);

/** Every KC the graph references (scope and remediation), each once, sorted. */
export function referencedKcIds(nodes: readonly GraphNode[]): string[] {
  return [...new Set(nodes.flatMap((node) => [...scopeOf(node.alpha), ...remediationOf(node.alpha)]))].sort();
}

/** A node the router may launch: content-bearing, KC-scoped (or authoritatively KC-free) and pinned exactly. */
export function isRoutable(node: GraphNode): boolean {
  const scoped = scopeOf(node.alpha).length > 0 || node.alpha.kc_scope_decision === 'authoritative_no_kc';
  return CONTENT_BEARING_KINDS.has(node.kind) && scoped && pinOf(node.alpha) !== null;
}

/**
 * The canonical course graph: format tag, root id, and every node in course order. Objects are built
 * with their keys already in sorted order, so JSON.stringify writes the canonical JSON directly.
 */
function canonicalOf(order: readonly OrderedNode<GraphNode>[], rootId: string) {
  return {
    course_id: rootId,
    format: 'alpha.course_graph/1',
    nodes: order.map(({ node, ordinal }) => ({
      component_id: node.component_id,
      kc_scope_decision: (node.alpha.kc_scope_decision as string | undefined) ?? null,
      kind: node.kind,
      ordinal,
      parent_component_id: node.component_id === rootId ? null : node.parent_component_id,
      publication_status: (node.alpha.publication_status as string | undefined) ?? 'draft',
      remediation_kc_refs: remediationOf(node.alpha),
      scope_kc_refs: scopeOf(node.alpha),
      student_id: node.student_id ?? null,
      target_ref: pinOf(node.alpha),
    })),
  };
}

/** The canonical exact KC-version set: one entry per KC, sorted by kc_id. */
export function canonicalKcSnapshot(versions: readonly KcVersionRef[]) {
  const entries = versions
    .map((version) => ({ kc_id: version.kc_id, kc_version_id: version.kc_version_id }))
    .sort((a, b) => (a.kc_id < b.kc_id ? -1 : a.kc_id > b.kc_id ? 1 : a.kc_version_id < b.kc_version_id ? -1 : 1));
  return { format: 'alpha.kc_snapshot/1', kc_versions: entries };
}

const sha256Of = (text: string) => createHash('sha256').update(text).digest('hex');
/** SHA-256 of canonical JSON; the two canonical forms above are key-sorted already, so JSON.stringify is that JSON. */
const sha256OfSorted = (value: unknown) => sha256Of(JSON.stringify(value));

export interface CourseGraph<N extends GraphNode> {
  /** The canonical graph's canonical JSON, which an approval hashes and keeps as evidence (900 KB for 2,000 nodes). */
  json: string;
  /** SHA-256 of its canonical JSON. */
  sha256: string;
  /** The first routable node in course order: a function of the graph alone, so an approval can record it. */
  firstRoutable: OrderedNode<N> | undefined;
}

/** The course graph under rootId, from one walk in course order (a 2,000-node course is walked on every approval). */
export function courseGraph<N extends GraphNode>(nodes: readonly N[], rootId: string): CourseGraph<N> {
  const order = courseOrder(nodes, rootId);
  const json = JSON.stringify(canonicalOf(order, rootId));
  return {
    json,
    sha256: sha256Of(json),
    firstRoutable: order.find((entry) => isRoutable(entry.node)),
  };
}

export const kcSnapshotSha256 = (versions: readonly KcVersionRef[]) => sha256OfSorted(canonicalKcSnapshot(versions));
