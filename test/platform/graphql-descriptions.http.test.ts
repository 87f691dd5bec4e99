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

/** A GraphQL query field (or filter input) and the REST read whose query parameters it takes. */
const READS: Array<[graphqlInput: string, service: keyof typeof roots, path: string]> = [
  ['Query.components', 'curriculum', `${curriculumV1}/components`],
  ['Query.kcPrerequisites', 'curriculum', `${curriculumV1}/kc-prerequisites`],
  ['Query.kcRelations', 'curriculum', `${curriculumV1}/kc-relations`],
  ['Query.kcReviewDecisions', 'curriculum', `${curriculumV1}/kc-review-decisions`],
  ['Query.kcFirmingEvents', 'curriculum', `${curriculumV1}/kc-firming-events`],
  ['Query.associations', 'curriculum', `${curriculumV1}/associations`],
  ['Query.standardsFrameworks', 'curriculum', `${curriculumV1}/standards-frameworks`],
  ['Query.standardKcMaps', 'curriculum', `${curriculumV1}/standard-kc-maps`],
  ['Query.gateStatus', 'curriculum', `${curriculumV1}/gates/{componentId}/status`],
  ['Query.gateNextForm', 'curriculum', `${curriculumV1}/gates/{componentId}/next-form`],
  ['Query.gateRemediation', 'curriculum', `${curriculumV1}/gates/{componentId}/remediation`],
  ['Query.nextLesson', 'curriculum', `${curriculumV1}/courses/{courseId}/next-lesson`],
  ['Query.placementCandidates', 'curriculum', `${curriculumV1}/tracks/{trackId}/placement-candidates`],
  ['ContentItemFilter', 'content', `${contentRoot}/items`],
  ['Query.events', 'events', `${roots.events}/events`],
  ['Query.eventTallies', 'events', `${roots.events}/event-tallies`],
];

/** A GraphQL object type and the REST read (its 200 answer, stepped into) that serves the same record. */
const ANSWERS: Array<[graphqlType: string, service: keyof typeof roots, path: string, steps?: string[]]> = [
  ['Component', 'curriculum', `${curriculumV1}/components/{componentId}`],
  ['ComponentPage', 'curriculum', `${curriculumV1}/components`],
  ['KnowledgeComponent', 'curriculum', `${curriculumV1}/kcs/{kcId}`],
  ['KnowledgeComponentVersion', 'curriculum', `${curriculumV1}/kcs/{kcId}/versions/{versionId}`],
  ['KcPrerequisite', 'curriculum', `${curriculumV1}/kc-prerequisites/{id}`],
  ['KcRelation', 'curriculum', `${curriculumV1}/kc-relations/{id}`],
  ['Association', 'curriculum', `${curriculumV1}/associations/{associationId}`],
  ['StandardsFramework', 'curriculum', `${curriculumV1}/standards-frameworks/{frameworkId}`],
  ['CourseApproval', 'curriculum', `${curriculumV1}/courses/{courseId}/approvals`, ['data']],
  ['NextLesson', 'curriculum', `${curriculumV1}/courses/{courseId}/next-lesson`],
  ['ContentItem', 'content', `${contentRoot}/items/{contentId}`],
  ['ContentVersion', 'content', `${contentRoot}/items/{contentId}/versions/{versionId}`],
  ['TestSpec', 'content', `${contentRoot}/items/{contentId}/blueprint`],
  ['AnswerSlot', 'content', `${contentRoot}/items/{contentId}/answer-slots`, ['data']],
  ['ContentMedia', 'content', `${contentRoot}/items/{contentId}/media`, ['data']],
  ['ContentEffectiveness', 'content', `${contentRoot}/items/{contentId}/effectiveness`],
  ['Event', 'events', `${roots.events}/events/{eventId}`],
  ['EventTally', 'events', `${roots.events}/event-tallies`, ['data']],
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

type Described = { name: string; description: string | null };

/** Every input type's fields and every root field's arguments by `Type` or `Query.field`/`Mutation.field`, and the served OpenAPI documents. */
async function bothDescriptions(platform: Parameters<typeof http>[0]) {
  const { token } = await newTenant(platform, { scopes: ['curriculum:read'] });
  const introspected = await graphql(
    platform,
    `
      {
        __schema {
          types {
            name
            inputFields {
              name
              description
            }
            fields {
              name
              description
            }
          }
          queryType {
            fields {
              name
              args {
                name
                description
              }
            }
          }
          mutationType {
            fields {
              name
              args {
                name
                description
              }
            }
          }
        }
      }
    `,
    {},
    token,
  );
  const schema = introspected.body.data.__schema;
  const inputs = new Map<string, Described[]>([
    ...schema.types.map((type: any) => [type.name, type.inputFields ?? type.fields ?? []]),
    ...schema.queryType.fields.map((field: any) => [`Query.${field.name}`, field.args]),
    ...schema.mutationType.fields.map((field: any) => [`Mutation.${field.name}`, field.args]),
  ]);
  const documents: Record<string, JsonSchema> = Object.fromEntries(
    await Promise.all(
      (['curriculum', 'content', 'events'] as const).map(async (service) => [
        service,
        (await http(platform, 'GET', `${roots[service]}/openapi.json`)).body,
      ]),
    ),
  );
  return { inputs, documents };
}

/** `input.field` for each REST name described there whose GraphQL counterpart exists without a description. */
function undescribedIn(input: string, inputs: Map<string, Described[]>, described: Array<[string, JsonSchema]>) {
  const fields = new Map((inputs.get(input) ?? []).map((field) => [field.name, field.description]));
  return described
    .filter(([name, property]) => property.description && fields.has(camelCase(name)))
    .filter(([name]) => !fields.get(camelCase(name))?.trim())
    .map(([name]) => `${input}.${camelCase(name)}`);
}

describe('GraphQL input descriptions (GraphQL clients read no OpenAPI)', () => {
  it('describe every input field and mutation argument whose REST body property is described', async ({ platform }) => {
    const { inputs, documents } = await bothDescriptions(platform);
    const undescribed = COUNTERPARTS.flatMap(([input, service, method, path, steps = []]) => {
      const body = steps.reduce(
        stepInto,
        documents[service].paths[path][method].requestBody.content['application/json'].schema,
      );
      return undescribedIn(input, inputs, Object.entries(propertiesOf(body)));
    });
    expect(undescribed).toEqual([]);
  });

  it('describe every query argument and filter field whose REST query parameter is described', async ({ platform }) => {
    const { inputs, documents } = await bothDescriptions(platform);
    const undescribed = READS.flatMap(([input, service, path]) =>
      undescribedIn(
        input,
        inputs,
        (documents[service].paths[path].get.parameters as JsonSchema[])
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => [parameter.name, parameter]),
      ),
    );
    expect(undescribed).toEqual([]);
  });

  it('describe every field of a record whose REST answer describes that field', async ({ platform }) => {
    const { inputs, documents } = await bothDescriptions(platform);
    const undescribed = ANSWERS.flatMap(([type, service, path, steps = []]) => {
      const answer = steps.reduce(
        stepInto,
        documents[service].paths[path].get.responses['200'].content['application/json'].schema,
      );
      return undescribedIn(type, inputs, Object.entries(propertiesOf(answer)));
    });
    expect(undescribed).toEqual([]);
  });
});
