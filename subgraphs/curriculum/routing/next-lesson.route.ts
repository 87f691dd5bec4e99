import { courseOrder, isRoutable, type GraphNode } from '../approvals/course-graph.ts';

/**
 * The routing decision of rule 10 over a course subtree, pure: the first routable node in course
 * order, launched only when it, every containment ancestor and the course root are published. A
 * node that is not published stops the walk: nothing after it is ever offered instead.
 */
export type Route<N extends GraphNode> =
  | { outcome: 'route'; node: N; ancestors: N[] }
  | { outcome: 'structure_missing' }
  | { outcome: 'not_published'; blocking: N };

export function nextLessonRoute<N extends GraphNode>(subtree: readonly N[], courseId: string): Route<N> {
  const candidate = courseOrder(subtree, courseId).find((entry) => isRoutable(entry.node));
  if (!candidate) return { outcome: 'structure_missing' };
  const blocking = [...candidate.ancestors, candidate.node].find(
    (node) => node.alpha.publication_status !== 'published',
  );
  if (blocking) return { outcome: 'not_published', blocking };
  return { outcome: 'route', node: candidate.node, ancestors: candidate.ancestors };
}
