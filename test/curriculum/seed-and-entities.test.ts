import { randomUUID } from 'node:crypto';
import { execute, parse } from 'graphql';
import { describe, expect } from 'vitest';
import { curriculumV1, eligibleVersion, http, newTenant } from '../kit.ts';
import { judgeBeforeCall } from '../../platform/commands.ts';
import type { RequestContext } from '../../platform/context.ts';
import { DomainError } from '../../platform/errors.ts';
import { curriculumIdempotency } from '../../subgraphs/curriculum/tables.ts';
import { platformTest } from '../platform-test.ts';
import { snakeCaseFieldResolver, type GraphContext } from '../../platform/graphql.ts';
import { curriculumService } from '../../subgraphs/curriculum/server.ts';
import { createComponent, createKc, key, pinOf, tenantRowCounts, trustedNewVersion } from './helpers.ts';

const it = platformTest({ seedDemo: true });

describe('demo seed', () => {
  it('seeds registry KCs and lessons whose scope_kc_refs name them', async ({ platform }) => {
    const demo = await newTenant(platform, { tenantId: 'demo' });
    const lesson = await http(platform, 'GET', `${curriculumV1}/components/demo-lesson-naming-fractions`, {
      token: demo.token,
    });
    expect(lesson.body.alpha.scope_kc_refs).toHaveLength(2);
    for (const kcId of lesson.body.alpha.scope_kc_refs) {
      const kc = await http(platform, 'GET', `${curriculumV1}/kcs/${kcId}`, { token: demo.token });
      expect(kc.body).toMatchObject({
        status: 'active',
        publication_status: 'published',
        stored_as: 'alpha.knowledge_component',
      });
    }
  });
});

describe('KnowledgeComponent entity', () => {
  it('resolves KnowledgeComponent references by kcId in one batch, for the caller tenant only', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const [a, b] = await Promise.all([createKc(platform, caller), createKc(platform, caller)]);
    const service = curriculumService(platform.runtime);
    const principal = await platform.runtime.auth.authenticate(`Bearer ${caller.token}`);
    const context: GraphContext = {
      requestId: randomUUID(),
      traceId: 't',
      principal,
      authError: undefined,
      loaders: new Map(),
      now: new Date(),
    };
    const before = platform.runtime.database.stats.queries;
    const result = await execute({
      schema: service.schema,
      document: parse(
        `query($r: [_Any!]!) { _entities(representations: $r) { ... on KnowledgeComponent { kcId definition } } }`,
      ),
      variableValues: {
        r: [a, b, { kc_id: randomUUID() }].map((kc) => ({ __typename: 'KnowledgeComponent', kcId: kc.kc_id })),
      },
      contextValue: context,
      fieldResolver: snakeCaseFieldResolver,
    });
    expect(result.errors).toBeUndefined();
    expect(result.data?._entities).toEqual([
      { kcId: a.kc_id, definition: a.definition },
      { kcId: b.kc_id, definition: b.definition },
      null,
    ]);
    expect(platform.runtime.database.stats.queries - before).toBeLessThanOrEqual(3);
  });
});

describe('parallel identical Idempotency-Keys on commands that ask content', () => {
  it('a repoint sent twice at once is applied once', async ({ platform }) => {
    const caller = await newTenant(platform);
    const first = await eligibleVersion(platform, caller);
    await createComponent(platform, caller, {
      component_id: 'lesson',
      kind: 'lesson',
      alpha: { target_ref: pinOf(first) },
    });
    const second = await trustedNewVersion(platform, caller, first.contentId);
    const headers = key();
    const body = {
      operation: 'repoint',
      expected_target_ref: pinOf(first),
      target_ref: pinOf({ ...first, versionId: second }),
    };
    const replies = await Promise.all(
      [0, 1, 2].map(() =>
        http(platform, 'POST', `${curriculumV1}/components/lesson/repoint`, { token: caller.token, headers, body }),
      ),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(replies.map((reply) => reply.body.repoint_id)).size).toBe(1);
    expect((await tenantRowCounts(platform, caller.tenantId)).pin_audit).toBe(2);
  });
});

describe('judgeBeforeCall', () => {
  it('answers the stored result when its checks refuse after an identical request under the key committed', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const lesson = await createComponent(platform, caller, { component_id: 'lesson', kind: 'lesson', name: 'v0' });
    const headers = { ...key(), 'x-curriculum-if-match': lesson.etag };
    const body = { name: 'v1' };
    const first = await http(platform, 'PATCH', `${curriculumV1}/components/lesson`, {
      token: caller.token,
      headers,
      body,
    });
    expect(first.status).toBe(200);
    // The state a late request judges: the first one's write already moved the ETag on.
    const stale = () => Promise.reject(new DomainError('precondition_failed', 'stale ETag'));
    const deps = { db: platform.runtime.database.db, idempotency: curriculumIdempotency };
    const ctx = { tenantId: caller.tenantId } as RequestContext;
    const call = { operation: 'components.patch:lesson', key: headers['idempotency-key'], sent: body };
    expect(await judgeBeforeCall(deps, ctx, call, stale)).toEqual({
      replay: { value: first.body, created: false, replayed: true },
    });
    await expect(judgeBeforeCall(deps, ctx, { ...call, key: randomUUID() }, stale)).rejects.toThrow('stale ETag');
    await expect(judgeBeforeCall(deps, ctx, { ...call, sent: { name: 'v2' } }, stale)).rejects.toThrow();
    expect(await judgeBeforeCall(deps, ctx, call, async () => 'passed')).toEqual({ judged: 'passed' });
  });
});
