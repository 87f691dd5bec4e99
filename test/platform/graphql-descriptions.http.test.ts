import { describe, expect } from 'vitest';
import { curriculumV1, graphql, http, newTenant, roots } from '../kit.ts';
import { platformTest } from '../platform-test.ts';

const it = platformTest();

const contentRoot = `${roots.content}/tenants/{tenantId}/alpha/content`;

/**
 * A GraphQL input (an input type, or a mutation's arguments) and the REST body it stands for: a
 * step into the body is a property name, through arrays to their items.
 */
const COUNTERPARTS: Array<
  [graphqlInput: string, service: keyof typeof roots, method: string, path: string, steps?: string[]]
> = [
  ['ComponentInput', 'curriculum', 'post', `${curriculumV1}/components`],
  ['ComponentAlphaInput', 'curriculum', 'post', `${curriculumV1}/components`, ['alpha']],
  ['ComponentPatchInput', 'curriculum', 'patch', `${curriculumV1}/components/{componentId}`],
  ['RepointInput', 'curriculum', 'post', `${curriculumV1}/components/{componentId}/repoint`],
  ['AssociationInput', 'curriculum', 'post', `${curriculumV1}/associations`],
  ['KnowledgeComponentInput', 'curriculum', 'post', `${curriculumV1}/kcs`],
  ['KnowledgeComponentAlphaInput', 'curriculum', 'post', `${curriculumV1}/kcs`, ['alpha']],
  ['VendorCourseIngestInput', 'curriculum', 'post', `${curriculumV1}/ingest/vendor-course-refs`],
  ['Mutation.createKcPrerequisite', 'curriculum', 'post', `${curriculumV1}/kc-prerequisites`],
  ['Mutation.createKcRelation', 'curriculum', 'post', `${curriculumV1}/kc-relations`],
  ['Mutation.recordKcFirmingEvent', 'curriculum', 'post', `${curriculumV1}/kc-firming-events`],
  ['CreateContentItemInput', 'content', 'post', `${contentRoot}/items`],
  ['QcDecisionInput', 'content', 'post', `${contentRoot}/items/{contentId}/versions/{versionId}/qc-decisions`],
  ['KcTagInput', 'content', 'post', `${contentRoot}/items/{contentId}/kc-tags`],
  ['CatalogFacetInput', 'content', 'post', `${contentRoot}/catalog-facets`],
  ['CatalogFacetAssignmentInput', 'content', 'post', `${contentRoot}/items/{contentId}/catalog-facets`],
  ['ContentMediaInput', 'content', 'post', `${contentRoot}/items/{contentId}/media`],
  ['ContentReferenceInput', 'content', 'post', `${contentRoot}/items/{contentId}/references`],
  [
    'CompositionBindingInput',
    'content',
    'put',
    `${contentRoot}/items/{contentId}/interactive-composition`,
    ['bindings'],
  ],
  ['Mutation.publishContentVersion', 'content', 'post', `${contentRoot}/items/{contentId}/publish`],
  ['EventInput', 'events', 'post', `${roots.events}/events`, ['events']],
  ['SourceImportInput', 'events', 'post', `${roots.events}/source-imports`],
  ['Mutation.registerActivitySource', 'events', 'post', `${roots.events}/activity-sources`],
];

type JsonSchema = Record<string, any>;

/** The properties of a schema, its anyOf/oneOf/allOf branches' included. */
function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])] as JsonSchema[];
  return Object.assign({}, ...branches.map(propertiesOf), schema.properties ?? {});
}

function stepInto(schema: JsonSchema, step: string): JsonSchema {
  const property = propertiesOf(schema)[step];
  return property.type === 'array' ? property.items : property;
}

const camelCase = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

describe('GraphQL input descriptions', () => {
  it('describe every input field and argument whose REST body property is described (GraphQL clients read no OpenAPI)', async ({
    platform,
  }) => {
    const { token } = await newTenant(platform, { scopes: ['curriculum:read'] });
    const introspected = await graphql(
      platform,
      '{ __schema { types { name inputFields { name description } } mutationType { fields { name args { name description } } } } }',
      {},
      token,
    );
    const schema = introspected.body.data.__schema;
    const inputs = new Map<string, Array<{ name: string; description: string | null }>>([
      ...schema.types.map((type: any) => [type.name, type.inputFields ?? []]),
      ...schema.mutationType.fields.map((field: any) => [`Mutation.${field.name}`, field.args]),
    ]);
    const documents = Object.fromEntries(
      await Promise.all(
        (['curriculum', 'content', 'events'] as const).map(async (service) => [
          service,
          (await http(platform, 'GET', `${roots[service]}/openapi.json`)).body,
        ]),
      ),
    );
    const undescribed = COUNTERPARTS.flatMap(([input, service, method, path, steps = []]) => {
      const body = steps.reduce(
        stepInto,
        documents[service].paths[path][method].requestBody.content['application/json'].schema,
      );
      const fields = new Map((inputs.get(input) ?? []).map((field) => [field.name, field.description]));
      return Object.entries(propertiesOf(body))
        .filter(([name, property]) => property.description && fields.has(camelCase(name)))
        .filter(([name]) => !fields.get(camelCase(name))?.trim())
        .map(([name]) => `${input}.${camelCase(name)}`);
    });
    expect(undescribed).toEqual([]);
  });
});
