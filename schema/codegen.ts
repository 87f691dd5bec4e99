import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '@graphql-codegen/cli';
import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * `npm run codegen`: resolver types generated from each subgraph's SDL into
 * subgraphs/<service>/generated/graphql.ts (checked in). Parents are the REST records the services
 * return (read through the snake_case field resolver), so `mappers` name those presenter types.
 */
const root = fileURLToPath(new URL('..', import.meta.url));

/** Mapper paths are relative to the generated file, subgraphs/<service>/generated/graphql.ts. */
const MAPPERS: Record<string, Record<string, string>> = {
  curriculum: {
    Component: '../queries.ts#Component',
    ComponentAlpha: '../resolvers/Component.ts#ComponentAlphaRecord',
    TargetRef: '../content-client.ts#TargetRef',
    ComponentTargetRepoint: '../repoint/repoint.service.ts#ComponentTargetRepoint',
    Association: '../associations/associations.service.ts#Association',
    Renderer: '../renderers.ts#RendererRow',
    KnowledgeComponent: '../kcs/kcs.service.ts#KnowledgeComponent',
    KnowledgeComponentVersion: '../kcs/kcs.service.ts#KcVersion',
    KcPrerequisite: '../kc-graph/kc-graph.service.ts#KcPrerequisite',
    KcReviewDecision: '../kc-graph/kc-graph.service.ts#KcReviewDecision',
    KcFirmingEvent: '../kc-graph/kc-graph.service.ts#KcFirmingEvent',
    KcRelation: '../kc-graph/kc-relations.service.ts#KcRelation',
    StandardsFramework: '../standards/standards.service.ts#StandardsFramework',
    StandardKcMap: '../standards/standards.service.ts#StandardKcMap',
    GateContract: '../gates/gates.service.ts#GateContract',
    GateRemediationMap: '../gates/gates.service.ts#GateRemediationMap',
    GateStatus: '../gates/gates.service.ts#GateStatus',
    GateNextForm: '../gates/gates.service.ts#GateNextForm',
    GateRemediation: '../gates/gates.service.ts#GateRemediation',
    GateRemediationTarget: '../gates/gates.service.ts#GateRemediationTarget',
    SourceIngestJob: '../ingest/ingest.service.ts#SourceIngestJob',
    IngestedCourse: '../ingest/ingest.service.ts#IngestedCourse',
    IngestRowOutcome: '../ingest/ingest.service.ts#IngestRowOutcome',
    CourseApproval: '../approvals/course-state.ts#CourseApproval',
    CourseApprovalKcVersion: '../approvals/course-state.ts#CourseApprovalKcVersion',
    NextLesson: '../routing/next-lesson.service.ts#NextLesson',
    LaunchEligibility: '../routing/next-lesson.service.ts#LaunchEligibility',
    PlacementCandidates: '../placement/placement.service.ts#PlacementCandidates',
  },
  content: {
    ContentItem: '../items/items.service.ts#ContentItem',
    ContentVersion: '../resolvers/ContentVersion.ts#ContentVersionParent',
    ReleaseEligibility: '../../../platform/contract.ts#ReleaseEligibility',
    TrustEvidence: '../trust/trust.service.ts#TrustEvidence',
    ContentKcTag: '../kc-tags/kc-tags.service.ts#ContentKcTag',
    ContentPublication: '../publish/publish.service.ts#ContentPublication',
    CatalogFacet: '../catalog/catalog.service.ts#CatalogFacet',
    CatalogFacetAssignment: '../catalog/catalog.service.ts#FacetAssignment',
    ContentReference: '../references/references.service.ts#ContentReference',
    TestSpec: '../blueprints/blueprint.service.ts#TestSpec',
    TestBankMembers: '../references/bank-contract.ts#TestBankMembers',
    TestBankMember: '../references/bank-contract.ts#BankMember',
    StudentView: '../resolvers/ContentVersion.ts#StudentViewRecord',
    ContentStudentView: '../resolvers/ContentItem.ts#StudentViewAnswer',
    ContentTrust: '../resolvers/ContentItem.ts#TrustAnswer',
    ContentEffectiveness: '../resolvers/ContentItem.ts#EffectivenessAnswer',
    ContentMedia: '../media/media.service.ts#MediaAsset',
    ContentExternalLink: '../records/records.service.ts#ExternalLink',
    VersionTrustStatus: '../records/records.service.ts#VersionTrustStatus',
    InteractiveComposition: '../composition/composition.service.ts#InteractiveComposition',
    AssessmentComponent: '../resolvers/ContentItem.ts#AssessmentComponentAnswer',
    ScoringPlanRule: '../resolvers/ContentItem.ts#ScoringPlanRuleAnswer',
  },
  events: {
    Event: '../learning/events.service.ts#EventProjection',
    ActivitySource: '../sources/sources.service.ts#ActivitySource',
    AttendanceEvent: '../moments/moments.service.ts#MomentRecord',
    DisciplineEvent: '../moments/moments.service.ts#MomentRecord',
    ContentItem: '../resolvers.ts#ContentItemReference',
    Person: '../resolvers.ts#PersonReference',
  },
};

export const GENERATED_FILES = Object.keys(MAPPERS).map((service) => `subgraphs/${service}/generated/graphql.ts`);

export function codegenConfig(): CodegenConfig {
  return {
    cwd: root,
    silent: true,
    generates: Object.fromEntries(
      Object.entries(MAPPERS).map(([service, mappers]) => [
        `subgraphs/${service}/generated/graphql.ts`,
        {
          schema: `schema/${service}.graphql`,
          plugins: [
            { add: { content: `/* Generated by npm run codegen from schema/${service}.graphql: do not edit. */` } },
            'typescript',
            'typescript-resolvers',
          ],
          config: {
            federation: true,
            useTypeImports: true,
            enumsAsTypes: true,
            contextType: '../../../platform/graphql.ts#GraphContext',
            mapperTypeSuffix: 'Model',
            mappers,
            scalars: { JSON: 'unknown', JSONObject: 'Record<string, unknown>' },
            useIndexSignature: false,
          },
        },
      ]),
    ),
  };
}

/** The generated files' text by path, without writing them. */
export async function generateResolverTypes(): Promise<Map<string, string>> {
  // generate() is declared to answer `any`; without writing, it answers the files it would write.
  const outputs: Array<{ filename: string; content: string }> = await generate(codegenConfig(), false);
  return new Map(outputs.map((output) => [path.relative(root, path.resolve(root, output.filename)), output.content]));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [file, content] of await generateResolverTypes()) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
    console.log(`wrote ${file}`);
  }
}
