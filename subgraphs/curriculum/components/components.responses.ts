import { z } from 'zod';
import { JsonObject, PageResponse } from '../../../platform/openapi.ts';
import { GovernedRowFields } from '../governed.responses.ts';

/** Answer schemas of components: they describe the REST answers and check them before they are sent. */

export const ComponentResponse = z.strictObject({
  component_id: z.string(),
  kind: z.string(),
  document_id: z.string().nullable(),
  parent_component_id: z.string().nullable(),
  position: z.number().int().nullable(),
  name: z.string().nullable(),
  human_coding_scheme: z.string().nullable(),
  student_id: z.string().optional().describe('Only on personalized course roots'),
  alpha: JsonObject,
  status: z.string(),
  ...GovernedRowFields,
});

export const ComponentPageResponse = PageResponse(ComponentResponse);

export interface ComponentTreeNode extends z.output<typeof ComponentResponse> {
  children: ComponentTreeNode[];
}
export const ComponentTreeResponse: z.ZodType<ComponentTreeNode> = ComponentResponse.extend({
  get children() {
    return z.array(ComponentTreeResponse);
  },
}).meta({ id: 'ComponentTree' });
