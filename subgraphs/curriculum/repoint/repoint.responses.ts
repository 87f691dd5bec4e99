import { z } from 'zod';
import { CONTENT_KINDS } from '../../../platform/contract.ts';
import { Timestamp } from '../../../platform/openapi.ts';
import { ComponentResponse } from '../components/components.responses.ts';

const TargetRef = z.strictObject({
  module: z.literal('content').optional(),
  content_kind: z.enum(CONTENT_KINDS),
  content_id: z.string(),
  content_version_id: z.string(),
});

export const RepointResponse = z.strictObject({
  repoint_id: z.string(),
  component_id: z.string(),
  operation: z.string(),
  previous_target_ref: TargetRef.nullable(),
  target_ref: TargetRef,
  actor: z.string(),
  recorded_at: Timestamp,
  component: ComponentResponse,
});

export const RendererRegistryResponse = z.strictObject({
  data: z.array(
    z.strictObject({
      renderer_ref: z.string(),
      renderer_kind: z.string(),
      player_version: z.string(),
      rendering_state: z.literal('verified_partial'),
      content_kinds: z.array(z.string()),
    }),
  ),
});
