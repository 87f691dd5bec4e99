import { DEMO_SCOPES, DEMO_TENANT, type Principal } from '../platform/auth.ts';
import { contextFor, type RequestContext } from '../platform/context.ts';
import type { PlatformRuntime } from '../platform/service.ts';
import { contentDeps } from '../subgraphs/content/deps.ts';
import { createItem } from '../subgraphs/content/items/items.service.ts';
import { appendVersion } from '../subgraphs/content/versions/versions.service.ts';
import { recordQcDecision } from '../subgraphs/content/trust/trust.service.ts';
import { provisionDemoPolicies } from '../subgraphs/content/records/records.service.ts';
import { createComponent } from '../subgraphs/curriculum/components/components.service.ts';
import { findComponents } from '../subgraphs/curriculum/queries.ts';
import { curriculumDeps } from '../subgraphs/curriculum/deps.ts';
import { createKc, publishKc } from '../subgraphs/curriculum/kcs/kcs.service.ts';
import { patchComponent } from '../subgraphs/curriculum/components/component-edits.service.ts';

/**
 * The demo tenant's first-start data, made through the same service functions the documented paths
 * call: an author writes the content, a different QC reviewer trusts it (the only way content
 * becomes trusted outside an import), and the course pins those exact versions, each pin checked
 * against content's published eligibility API like any other.
 */

export const DEMO_COURSE_ID = 'demo-course-fractions';

function seedPrincipal(subject: string, roles: string[]): Principal {
  return {
    subject,
    tenantId: DEMO_TENANT,
    scopes: new Set(DEMO_SCOPES),
    roles: new Set(roles),
    boundary: {},
    token: '',
  };
}

/** Registry KCs of the demo course; fixed kc_ids so a re-seed is an exact-kc_id retry. */
const KCS = [
  {
    kc_id: '7a1d0c3e-2b4f-4e6a-9c8d-0f1e2d3c0001',
    definition: 'A fraction a/b names a of b equal parts of one whole.',
    knowledgeType: 'conceptual',
  },
  {
    kc_id: '7a1d0c3e-2b4f-4e6a-9c8d-0f1e2d3c0002',
    definition: 'A fraction is a point on the number line, reached by equal jumps from 0.',
    knowledgeType: 'conceptual',
  },
  {
    kc_id: '7a1d0c3e-2b4f-4e6a-9c8d-0f1e2d3c0003',
    definition: 'Name a shaded part of a partitioned shape as a fraction.',
    knowledgeType: 'procedural',
  },
];

const LESSONS = [
  {
    componentId: 'demo-lesson-what-is-a-fraction',
    kcIds: [KCS[0].kc_id],
    contentId: '5f0c8a52-6a3e-4c51-9d0e-1b7f4a2e0001',
    kind: 'article' as const,
    title: 'What is a fraction?',
    blocks: [
      { type: 'heading', text: 'What is a fraction?', order: 0 },
      {
        type: 'text',
        text: 'A fraction names equal parts of one whole. In 3/4 the whole has 4 equal parts and we take 3.',
        order: 1,
      },
    ],
  },
  {
    componentId: 'demo-lesson-number-line',
    kcIds: [KCS[1].kc_id],
    contentId: '5f0c8a52-6a3e-4c51-9d0e-1b7f4a2e0002',
    kind: 'article' as const,
    title: 'Fractions on a number line',
    blocks: [
      { type: 'heading', text: 'Fractions on a number line', order: 0 },
      { type: 'text', text: 'Split the space from 0 to 1 into equal jumps; each jump is one part.', order: 1 },
    ],
  },
  {
    componentId: 'demo-lesson-naming-fractions',
    kcIds: [KCS[0].kc_id, KCS[2].kc_id],
    contentId: '5f0c8a52-6a3e-4c51-9d0e-1b7f4a2e0003',
    kind: 'question' as const,
    title: 'Name the shaded fraction',
    blocks: [{ type: 'probe', text: 'A bar has 8 equal parts and 5 are shaded. What fraction is shaded?', order: 0 }],
  },
];

export async function seedDemoTenant(runtime: PlatformRuntime): Promise<void> {
  const ids = { requestId: 'demo-seed', traceId: 'demo-seed' };
  const author: RequestContext = contextFor(seedPrincipal('system:demo-seed-author', ['service']), ids);
  const reviewer: RequestContext = contextFor(seedPrincipal('system:demo-seed-qc-reviewer', ['reviewer']), ids);
  const deps = curriculumDeps(runtime);
  const { db } = runtime.database;
  const content = contentDeps(runtime);
  await provisionDemoPolicies(db, DEMO_TENANT, author.now);
  if ((await findComponents(db, DEMO_TENANT, [DEMO_COURSE_ID])).length > 0) return;

  // Created draft and published by PATCH, as the state table asks of every producer.
  const createPublished = async (body: { component_id: string } & Record<string, unknown>) => {
    const { value: created } = await createComponent(deps, author, { body, idempotencyKey: undefined });
    await patchComponent(deps, author, {
      componentId: body.component_id,
      body: { alpha: { publication_status: 'published' } },
      ifMatch: created.etag,
      idempotencyKey: `demo-seed:publish:${body.component_id}`,
    });
  };
  const pins = [];
  for (const lesson of LESSONS) {
    const { contentId } = lesson;
    await createItem(content, author, {
      body: {
        content_id: contentId,
        content_kind: lesson.kind,
        title: lesson.title,
        status: 'published',
        subject_id: 'math',
        target_grade_id: '3',
        language: 'en',
      },
      idempotencyKey: `demo-seed:item:${contentId}`,
    });
    const body = { student_view: { blocks: lesson.blocks } };
    const version = (
      await appendVersion(content, author, { contentId, body, idempotencyKey: `demo-seed:version:${contentId}` })
    ).value;
    await recordQcDecision(content, reviewer, {
      contentId,
      versionId: version.version_id,
      body: { trust_status: 'trusted', reason: 'Demo seed: reviewed by the QC reviewer.' },
      idempotencyKey: `demo-seed:qc:${version.version_id}`,
    });
    pins.push({ lesson, version });
  }

  for (const kc of KCS) {
    const { value: created } = await createKc(deps, author, {
      idempotencyKey: undefined,
      body: {
        kc_id: kc.kc_id,
        stored_as: 'alpha.knowledge_component',
        definition: kc.definition,
        alpha: {
          subject_id: 'math',
          kc_kind: 'substantive',
          instructional_classification: { knowledgeType: kc.knowledgeType },
        },
      },
    });
    await publishKc(deps, author, {
      kcId: created.kc_id,
      body: { publication_status: 'published' },
      ifMatch: created.etag,
      idempotencyKey: `demo-seed:publish-kc:${kc.kc_id}`,
    });
  }

  await createPublished({
    component_id: DEMO_COURSE_ID,
    kind: 'course',
    name: 'Fractions foundations',
    alpha: {
      subject_id: 'math',
      course_kind: 'static',
      course_grade_mode: 'single_grade',
      course_grade_levels: [3],
    },
  });
  await createPublished({
    component_id: 'demo-unit-understanding-fractions',
    kind: 'unit',
    name: 'Understanding fractions',
    parent_component_id: DEMO_COURSE_ID,
    position: 0,
    alpha: { subject_id: 'math', grade_level: 3 },
  });
  for (const [position, { lesson, version }] of pins.entries()) {
    await createPublished({
      component_id: lesson.componentId,
      kind: 'lesson',
      name: lesson.title,
      parent_component_id: 'demo-unit-understanding-fractions',
      position,
      alpha: {
        subject_id: 'math',
        grade_level: 3,
        expected_xp: 10,
        scope_kc_refs: lesson.kcIds,
        renderer_ref: 'renderer:interactive-lesson',
        target_ref: {
          module: 'content',
          content_kind: lesson.kind,
          content_id: lesson.contentId,
          content_version_id: version.version_id,
        },
      },
    });
  }
}
