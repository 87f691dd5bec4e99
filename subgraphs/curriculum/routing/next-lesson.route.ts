import type { GraphNode, OrderedNode } from '../approvals/course-graph.ts';

/**
 * The routing decision of rule 10 over a course subtree, pure: the first routable node in course
 * order, launched only when it, every containment ancestor and the course root are published. A
 * node that is not published stops the walk: nothing after it is ever offered instead.
 */
export type Route<N extends GraphNode> =
  | { outcome: 'route'; node: N; ancestors: N[] }
  | { outcome: 'structure_missing' }
  | { outcome: 'not_published'; blocking: N };

/** The route to a candidate given its containment ancestors (course root first). */
export function routeAlong<N extends GraphNode>(node: N, ancestors: N[]): Route<N> {
  const blocking = [...ancestors, node].find((step) => step.alpha.publication_status !== 'published');
  if (blocking) return { outcome: 'not_published', blocking };
  return { outcome: 'route', node, ancestors };
}

/** The route to a course graph's first routable node (`CourseGraph.firstRoutable`), if it has one. */
export function nextLessonRoute<N extends GraphNode>(candidate: OrderedNode<N> | undefined): Route<N> {
  return candidate ? routeAlong(candidate.node, candidate.ancestors) : { outcome: 'structure_missing' };
}
