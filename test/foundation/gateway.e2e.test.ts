import { randomUUID } from 'node:crypto';
import { INVALID_SPAN_CONTEXT, trace, type Span, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { describe, expect } from 'vitest';
import {
  curriculumV1,
  eligibleVersion,
  graphql,
  http,
  newTenant,
  failQc,
  pinnedLesson as pinnedLessonOf,
  tenantRoot,
} from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';

const HEADLINE = `query($id: ID!) { component(componentId: $id) { componentId kind alpha { targetRef { contentId contentVersionId contentKind version { versionId versionNumber releaseEligibility { contentId contentVersionId releaseEligible serveable trustStatus usageScope problemCode } } } } } }`;

const it = platformTest();

const pinnedLesson = (componentId: string) => pinnedLessonOf(filePlatform(), componentId);

describe('the headline query through the gateway', () => {
  it('returns the component, its pinned version and the live eligibility in one query', async ({ platform }) => {
    const { caller, pin } = await pinnedLesson('lesson-1');
    const result = await graphql(platform, HEADLINE, { id: 'lesson-1' }, caller.token);
    expect(result.status).toBe(200);
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data).toEqual({
      component: {
        componentId: 'lesson-1',
        kind: 'lesson',
        alpha: {
          targetRef: {
            contentId: pin.contentId,
            contentVersionId: pin.versionId,
            contentKind: 'article',
            version: {
              versionId: pin.versionId,
              versionNumber: 2,
              releaseEligibility: {
                contentId: pin.contentId,
                contentVersionId: pin.versionId,
                releaseEligible: true,
                serveable: true,
                trustStatus: 'trusted',
                usageScope: 'practice_eligible',
                problemCode: null,
              },
            },
          },
        },
      },
    });
  });

  it('answers an ineligible version with releaseEligible false and its problemCode, not an error', async ({
    platform,
  }) => {
    const { caller, pin } = await pinnedLesson('lesson-2');
    await failQc(platform, caller, pin);
    const result = await graphql(platform, HEADLINE, { id: 'lesson-2' }, caller.token);
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.component.alpha.targetRef.version.releaseEligibility).toMatchObject({
      releaseEligible: false,
      serveable: false,
      trustStatus: 'failed',
      problemCode: 'content.version_not_serveable',
    });
  });

  it('answers the live eligibility to the same document before and after a write (only the parsed operation is kept)', async ({
    platform,
  }) => {
    const { caller, pin } = await pinnedLesson('lesson-live');
    const other = await pinnedLesson('lesson-other');
    const eligibility = async (id: string, token: string) => {
      const result = await graphql(platform, HEADLINE, { id }, token);
      expect(result.body.errors).toBeUndefined();
      return result.body.data.component.alpha.targetRef.version.releaseEligibility;
    };
    expect(await eligibility('lesson-live', caller.token)).toMatchObject({ releaseEligible: true });
    await failQc(platform, caller, pin);
    expect(await eligibility('lesson-live', caller.token)).toMatchObject({
      releaseEligible: false,
      trustStatus: 'failed',
    });
    // The same document with another tenant's variables answers that tenant's own data.
    expect(await eligibility('lesson-other', other.caller.token)).toMatchObject({
      contentVersionId: other.pin.versionId,
      releaseEligible: true,
    });
  });

  it('answers concurrent headlines, which share their eligibility reads, each with its own tenant and the eligibility as of its asking', async ({
    platform,
  }) => {
    const live = await pinnedLesson('lesson-together');
    const other = await pinnedLesson('lesson-together');
    const burst = (count: number) =>
      Promise.all(
        Array.from({ length: count }, async (_, index) => {
          const { caller, pin } = index % 2 === 0 ? live : other;
          const result = await graphql(platform, HEADLINE, { id: 'lesson-together' }, caller.token);
          expect(result.body.errors).toBeUndefined();
          const { releaseEligibility } = result.body.data.component.alpha.targetRef.version;
          expect(releaseEligibility.contentVersionId).toBe(pin.versionId);
          return { tenant: caller.tenantId, releaseEligible: releaseEligibility.releaseEligible as boolean };
        }),
      );
    const eligibleOf = (answers: Array<{ tenant: string; releaseEligible: boolean }>, tenant: string) => [
      ...new Set(answers.filter((answer) => answer.tenant === tenant).map((answer) => answer.releaseEligible)),
    ];
    const before = await burst(16);
    expect(eligibleOf(before, live.caller.tenantId)).toEqual([true]);

    await failQc(platform, live.caller, live.pin);
    // Every headline asked after the decision answered reads it, whichever statement it shared.
    const after = await burst(16);
    expect(eligibleOf(after, live.caller.tenantId)).toEqual([false]);
    expect(eligibleOf(after, other.caller.tenantId)).toEqual([true]);
  });

  it('answers the same JSON whatever accept header names (incremental format negotiated only for multipart/mixed)', async ({
    platform,
  }) => {
    const { caller } = await pinnedLesson('lesson-accept');
    const ask = (accept?: string) =>
      http(platform, 'POST', '/graphql', {
        token: caller.token,
        body: { query: HEADLINE, variables: { id: 'lesson-accept' } },
        headers: accept ? { accept } : {},
      });
    const plain = await ask();
    expect(plain.status).toBe(200);
    expect(plain.body.errors).toBeUndefined();
    for (const accept of [
      'application/json',
      '*/*',
      'multipart/mixed; deferSpec=20220824, application/json',
      'Multipart/Mixed;incrementalSpec=v0.2, application/json;q=0.9',
    ]) {
      const answer = await ask(accept);
      expect(answer.status, accept).toBe(200);
      expect(answer.headers.get('content-type'), accept).toMatch(/^application\/json/);
      expect(answer.body, accept).toEqual(plain.body);
    }
  });

  it('runs parallel root fetches, conditional selections and entity fetches without trace nodes (patched executeNode)', async ({
    platform,
  }) => {
    const { caller, pin } = await pinnedLesson('lesson-plan-shapes');
    const query = `query($id: ID!, $version: ID!, $deep: Boolean!) {
      component(componentId: $id) { componentId alpha { targetRef { version @include(if: $deep) { versionNumber releaseEligibility { releaseEligible } } } } }
      contentVersion(versionId: $version) { versionId releaseEligibility @skip(if: $deep) { trustStatus } }
    }`;
    const ask = (deep: boolean) =>
      graphql(platform, query, { id: 'lesson-plan-shapes', version: pin.versionId, deep }, caller.token);
    const deep = await ask(true);
    expect(deep.body.errors).toBeUndefined();
    expect(deep.body.data).toEqual({
      component: {
        componentId: 'lesson-plan-shapes',
        alpha: { targetRef: { version: { versionNumber: 2, releaseEligibility: { releaseEligible: true } } } },
      },
      contentVersion: { versionId: pin.versionId },
    });
    const shallow = await ask(false);
    expect(shallow.body.errors).toBeUndefined();
    expect(shallow.body.data).toEqual({
      component: { componentId: 'lesson-plan-shapes', alpha: { targetRef: {} } },
      contentVersion: { versionId: pin.versionId, releaseEligibility: { trustStatus: 'trusted' } },
    });
  });

  it('resolves nothing across tenants and carries the REST codes in extensions', async ({ platform }) => {
    await pinnedLesson('lesson-3');
    const stranger = await newTenant(platform);
    const hidden = await graphql(platform, HEADLINE, { id: 'lesson-3' }, stranger.token);
    expect(hidden.body.data.component).toBeNull();
    const anonymous = await graphql(platform, HEADLINE, { id: 'lesson-3' });
    expect(anonymous.body.errors[0].extensions.code).toBe('curriculum:unauthenticated');
    const badToken = await graphql(platform, HEADLINE, { id: 'lesson-3' }, 'not-a-token');
    expect(badToken.body.errors[0].extensions.code).toBe('curriculum:unauthenticated');
    const invalid = await graphql(
      platform,
      `
        mutation {
          createComponent(input: { componentId: "x", kind: "planet" }) {
            componentId
          }
        }
      `,
      {},
      stranger.token,
    );
    expect(invalid.body.errors[0].extensions.code).toBe('curriculum:validation_failed');
    expect(invalid.body.errors[0].extensions.fieldErrors[0].field).toBe('kind');
  });

  it('creates through GraphQL mutations with the same rules as REST', async ({ platform }) => {
    const caller = await newTenant(platform);
    const key = randomUUID();
    const create = `mutation($key: String!) { createContentItem(idempotencyKey: $key, input: { contentKind: "article", title: "GQL", status: "published" }) { contentId latestVersionNumber } }`;
    const first = await graphql(platform, create, { key }, caller.token);
    const replay = await graphql(platform, create, { key }, caller.token);
    expect(first.body.data.createContentItem.contentId).toBe(replay.body.data.createContentItem.contentId);
    const rest = await http(
      platform,
      'GET',
      `${tenantRoot(caller.tenantId)}/items/${first.body.data.createContentItem.contentId}`,
      { token: caller.token },
    );
    expect(rest.body.title).toBe('GQL');
    const conflict = await graphql(platform, create.replace('"GQL"', '"Other"'), { key }, caller.token);
    expect(conflict.body.errors[0].extensions.code).toBe('content.idempotency_conflict');
  });

  it('reads version bodies only when asked, and answers eligibility on a version just written', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const pin = await eligibleVersion(platform, caller);
    const read = await graphql(
      platform,
      `
        query ($id: ID!) {
          contentVersion(versionId: $id) {
            versionNumber
            studentView {
              blocks {
                type
                text
                order
              }
            }
            releaseEligibility {
              releaseEligible
            }
          }
        }
      `,
      { id: pin.versionId },
      caller.token,
    );
    expect(read.body.data.contentVersion).toEqual({
      versionNumber: 2,
      studentView: { blocks: [{ type: 'text', text: 'Body', order: 0 }] },
      releaseEligibility: { releaseEligible: true },
    });
    const appended = await graphql(
      platform,
      `
        mutation ($id: ID!) {
          appendContentVersion(
            contentId: $id
            input: { studentView: { blocks: [{ type: "text", text: "New", order: 0 }] } }
          ) {
            versionNumber
            studentView {
              blocks {
                text
              }
            }
            releaseEligibility {
              trustStatus
              releaseEligible
              problemCode
            }
          }
        }
      `,
      { id: pin.contentId },
      caller.token,
    );
    expect(appended.body.data.appendContentVersion).toEqual({
      versionNumber: 3,
      studentView: { blocks: [{ text: 'New' }] },
      releaseEligibility: {
        trustStatus: 'unknown',
        releaseEligible: false,
        problemCode: 'content.version_not_serveable',
      },
    });
  });

  it('serves Apollo Sandbox on GET /graphql', async ({ platform }) => {
    const response = await fetch(`${platform.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('sandbox');
  });
});

describe('query shape', () => {
  it('resolves 100 pinned components with one SQL statement per entity type', async ({ platform }) => {
    const caller = await newTenant(platform);
    const pins = [];
    for (let index = 0; index < 5; index += 1) pins.push(await eligibleVersion(platform, caller));
    await http(platform, 'POST', `${curriculumV1}/components`, {
      token: caller.token,
      body: { component_id: 'unit', kind: 'unit' },
    });
    for (let index = 0; index < 100; index += 1) {
      const pin = pins[index % pins.length];
      const created = await http(platform, 'POST', `${curriculumV1}/components`, {
        token: caller.token,
        body: {
          component_id: `lesson-${String(index).padStart(3, '0')}`,
          kind: 'lesson',
          parent_component_id: 'unit',
          alpha: {
            target_ref: { content_kind: 'article', content_id: pin.contentId, content_version_id: pin.versionId },
          },
        },
      });
      expect(created.status).toBe(201);
    }
    const query = `{ components(parentId: "unit", limit: 100) { data { componentId alpha { targetRef { version { versionId versionNumber item { title } releaseEligibility { releaseEligible trustStatus } } } } } } }`;
    const before = platform.runtime.database.stats.queries;
    const result = await graphql(platform, query, {}, caller.token);
    const statements = platform.runtime.database.stats.queries - before;
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.components.data).toHaveLength(100);
    expect(
      result.body.data.components.data.every(
        (node: any) => node.alpha.targetRef.version.releaseEligibility.releaseEligible,
      ),
    ).toBe(true);
    // components page, versions with eligibility, items: one statement each.
    expect(statements).toBe(3);
  });

  it('reads a tree of any depth with one statement per level', async ({ platform }) => {
    const caller = await newTenant(platform);
    const post = (body: unknown) => http(platform, 'POST', `${curriculumV1}/components`, { token: caller.token, body });
    await post({ component_id: 'c', kind: 'course' });
    for (const unit of ['u1', 'u2']) {
      await post({ component_id: unit, kind: 'unit', parent_component_id: 'c' });
      for (const lesson of ['a', 'b', 'c'])
        await post({ component_id: `${unit}-${lesson}`, kind: 'lesson', parent_component_id: unit });
    }
    const before = platform.runtime.database.stats.queries;
    const result = await graphql(
      platform,
      `
        {
          component(componentId: "c") {
            children {
              componentId
              children {
                componentId
                children {
                  componentId
                }
              }
            }
          }
        }
      `,
      {},
      caller.token,
    );
    const statements = platform.runtime.database.stats.queries - before;
    expect(result.body.data.component.children.map((unit: any) => unit.children.length)).toEqual([3, 3]);
    expect(statements).toBe(4);
  });

  it('hands every span to a registered tracer provider (the patched no-op tracer is used only without one)', async ({
    platform,
  }) => {
    const { caller } = await pinnedLesson('lesson-traced');
    const started: string[] = [];
    const span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    const recording = {
      startSpan: (name: string) => {
        started.push(name);
        return span;
      },
      startActiveSpan: (name: string, ...args: unknown[]) => {
        started.push(name);
        return (args.at(-1) as (span: Span) => unknown)(span);
      },
    } as Tracer;
    const provider: TracerProvider = { getTracer: () => recording };
    expect(trace.setGlobalTracerProvider(provider)).toBe(true);
    try {
      const traced = await graphql(platform, HEADLINE, { id: 'lesson-traced' }, caller.token);
      expect(traced.body.errors).toBeUndefined();
    } finally {
      trace.disable();
    }
    expect(started).toEqual(expect.arrayContaining(['gateway.request', 'gateway.execute', 'gateway.fetch']));
    started.length = 0;
    const untraced = await graphql(platform, HEADLINE, { id: 'lesson-traced' }, caller.token);
    expect(untraced.body.errors).toBeUndefined();
    expect(started).toEqual([]);
  });
});
