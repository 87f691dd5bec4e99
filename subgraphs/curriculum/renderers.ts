/**
 * The renderer registry. renderer_kind is a compatibility alias: it resolves to the same row as its
 * renderer_ref, so a component may name either and always stores the canonical renderer_ref.
 */
export interface RendererRow {
  renderer_ref: string;
  renderer_kind: string;
  player_version: string;
  rendering_state: 'verified_partial';
  content_kinds: string[];
}

export const RENDERER_REGISTRY: readonly RendererRow[] = [
  {
    renderer_ref: 'renderer:interactive-lesson',
    renderer_kind: 'interactive_lesson',
    player_version: '2026-07-18',
    rendering_state: 'verified_partial',
    content_kinds: ['article', 'interactive', 'video', 'question', 'audio', 'image', 'external_link'],
  },
  {
    renderer_ref: 'renderer:qti-test',
    renderer_kind: 'qti_test',
    player_version: '2026-07-18',
    rendering_state: 'verified_partial',
    content_kinds: ['test', 'test_bank', 'question'],
  },
];

/** The renderer a published mastery_gate uses (rule 17). */
export const GATE_RENDERER = 'renderer:qti-test';

/** The registry row a renderer_ref or renderer_kind names, or undefined. */
export function resolveRenderer(reference: string): RendererRow | undefined {
  return RENDERER_REGISTRY.find((row) => row.renderer_ref === reference || row.renderer_kind === reference);
}
