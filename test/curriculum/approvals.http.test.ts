import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { canonicalJson } from '../../platform/idempotency.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curriculumV1, http, newTenant, startTestPlatform, type TestPlatform } from '../kit.ts';
import { holdLock } from '../held-lock.ts';
import { createComponent, createKc, expectProblem, key, rowsOf } from './helpers.ts';
import { approve, approveOk, authorCourse, patchComponent } from './learner-helpers.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform?.close();
});

const approvals = (courseId: string) => `${curriculumV1}/courses/${courseId}/approvals`;

async function approvalRows(tenantId: string): Promise<{ approvals: number; snapshots: number; firming: number }> {
  const count = async (table: string) =>
    Number(
      rowsOf<{ n: number }>(
        await platform.runtime.database.db.execute(
          sql`select count(*)::int as n from ${sql.raw(`curriculum.${table}`)} where tenant_id = ${tenantId}`,
        ),
      )[0].n,
    );
  return {
    approvals: await count('course_approvals'),
    snapshots: await count('course_approval_kc_versions'),
    firming: await count('kc_firming_events'),
  };
}

describe('POST /courses/{courseId}/approvals', () => {
  it('approves, snapshots and firms the exact KC versions with course-approval events, and answers both digests', async () => {
    const caller = await newTenant(platform);
    const course = await authorCourse(platform, caller);
    const kc = (await http(platform, 'GET', `${curriculumV1}/kcs/${course.kcId}`, { token: caller.token })).body;
    expect(kc.current_version.state).toBe('draft');
    const approval = await approveOk(platform, caller, course.courseId);
    expect(approval).toMatchObject({
      course_id: 'course',
      sequence: 1,
      approved_by: 'reviewer:ada',
      provenance: { source: 'authoring_ui', course_ref: 'course' },
      course_graph_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      kc_snapshot_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      kc_snapshot: [
        {
          kc_id: course.kcId,
          kc_version_id: kc.current_version_id,
          version_number: 1,
          state: 'firm',
          firmed_by_approval: true,
        },
      ],
    });
    const version = await http(
      platform,
      'GET',
      `${curriculumV1}/kcs/${course.kcId}/versions/${kc.current_version_id}`,
      { token: caller.token },
    );
    expect([version.body.state, version.body.firming_event_id]).toEqual([
      'firm',
      approval.kc_snapshot[0].firming_event_id,
    ]);
    const events = await http(
      platform,
      'GET',
      `${curriculumV1}/kc-firming-events?kc_version_id=${kc.current_version_id}`,
      { token: caller.token },
    );
    expect(events.body.data).toMatchObject([
      { source: 'course_approval', evidence: { course_id: 'course', approval_id: approval.approval_id } },
    ]);
    // The graph kept as evidence is the canonical graph the digest is of, stored as a JSON object.
    const [evidence] = rowsOf<{ graph: Record<string, unknown> }>(
      await platform.runtime.database.db.execute(
        sql`select course_graph as graph from curriculum.course_approvals where tenant_id = ${caller.tenantId}`,
      ),
    );
    expect(evidence.graph).toMatchObject({ format: 'alpha.course_graph/1', course_id: 'course' });
    expect(createHash('sha256').update(canonicalJson(evidence.graph)).digest('hex')).toBe(approval.course_graph_sha256);

    // The same graph again answers the latest approval; nothing is appended.
    const again = await approve(platform, caller, course.courseId, {
      expected_course_graph_sha256: approval.course_graph_sha256,
      expected_kc_snapshot_sha256: approval.kc_snapshot_sha256,
    });
    expect([again.status, again.body.approval_id]).toEqual([200, approval.approval_id]);
    expect(await approvalRows(caller.tenantId)).toEqual({ approvals: 1, snapshots: 1, firming: 1 });

    // A changed graph is appended as approval 2; the already-firm version is snapshotted, not firmed again.
    expect((await patchComponent(platform, caller, course.lessonIds[0], { position: 5 })).status).toBe(200);
    const second = await approveOk(platform, caller, course.courseId);
    expect(second).toMatchObject({
      sequence: 2,
      kc_snapshot: [{ kc_version_id: kc.current_version_id, firmed_by_approval: false }],
    });
    expect(second.course_graph_sha256).not.toBe(approval.course_graph_sha256);
    expect(second.kc_snapshot_sha256).toBe(approval.kc_snapshot_sha256);

    const list = await http(platform, 'GET', approvals('course'), { token: caller.token });
    expect(list.body.data.map((item: any) => item.sequence)).toEqual([1, 2]);
    expect(list.body.data[0]).toEqual(approval);
    const page = await http(platform, 'GET', `${approvals('course')}?limit=1`, { token: caller.token });
    const next = await http(platform, 'GET', `${approvals('course')}?limit=1&cursor=${page.body.next_cursor}`, {
      token: caller.token,
    });
    expect([page.body.data[0].sequence, next.body.data[0].sequence, next.body.next_cursor]).toEqual([1, 2, null]);
  });

  it('approving an unchanged graph again judges its KC versions as they stand', async () => {
    const caller = await newTenant(platform);
    const course = await authorCourse(platform, caller);
    const first = await approveOk(platform, caller, course.courseId);
    const appended = await http(platform, 'POST', `${curriculumV1}/kcs/${course.kcId}/versions`, {
      token: caller.token,
      headers: key(),
      body: { definition: 'Edited' },
    });
    expect(appended.status, JSON.stringify(appended.body)).toBe(201);

    // The KC moved under an unchanged graph: the old KC digest is refused, naming the current ones.
    const stale = await approve(platform, caller, course.courseId, {
      expected_kc_snapshot_sha256: first.kc_snapshot_sha256,
    });
    expectProblem(stale, 409, 'curriculum:approval_digest_mismatch');
    expect(stale.body.fieldErrors.map((error: any) => error.field)).toEqual(['expected_kc_snapshot_sha256']);
    expect(stale.body.course_graph_sha256).toBe(first.course_graph_sha256);
    expect(stale.body.kc_snapshot_sha256).not.toBe(first.kc_snapshot_sha256);

    const second = await approveOk(platform, caller, course.courseId, {
      expected_course_graph_sha256: first.course_graph_sha256,
      expected_kc_snapshot_sha256: stale.body.kc_snapshot_sha256,
    });
    expect(second).toMatchObject({
      sequence: 2,
      course_graph_sha256: first.course_graph_sha256,
      kc_snapshot_sha256: stale.body.kc_snapshot_sha256,
      kc_snapshot: [{ kc_id: course.kcId, version_number: 2, firmed_by_approval: true }],
    });
    const again = await approve(platform, caller, course.courseId);
    expect([again.status, again.body]).toEqual([200, second]);
    expect(await approvalRows(caller.tenantId)).toEqual({ approvals: 2, snapshots: 2, firming: 2 });
  });

  it('two courses approved together firm their shared draft KC version once, and both are approved', async () => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller, { publication_status: 'published' });
    for (const courseId of ['a', 'b']) await authorCourse(platform, caller, { courseId, kcId: kc.kc_id });
    // On PostgreSQL both approvals read the version as draft, then wait to firm it: the second one finds it firm.
    const held =
      platform.runtime.database.driver === 'postgres'
        ? await holdLock(
            (tx) =>
              tx`select pg_advisory_xact_lock(hashtextextended(${`kc-firm|${caller.tenantId}|${kc.current_version_id}`}, 0))`,
          )
        : undefined;
    const together = Promise.all([approve(platform, caller, 'a'), approve(platform, caller, 'b')]);
    if (held) {
      await held.waitedOn();
      await new Promise((resolve) => setTimeout(resolve, 500));
      await held.release();
    }
    const replies = await together;
    for (const reply of replies) expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const entries = replies.map((reply) => reply.body.kc_snapshot[0]);
    expect(new Set(entries.map((entry) => entry.firming_event_id)).size).toBe(1);
    expect(entries.map((entry) => entry.firmed_by_approval).sort()).toEqual([false, true]);
    expect((await approvalRows(caller.tenantId)).firming).toBe(1);
  });

  it("refuses a cursor of another course's approvals instead of reading it as a position", async () => {
    const caller = await newTenant(platform);
    for (const courseId of ['a', 'b']) {
      const course = await authorCourse(platform, caller, { courseId });
      await approveOk(platform, caller, courseId);
      expect((await patchComponent(platform, caller, course.lessonIds[0], { position: 5 })).status).toBe(200);
      await approveOk(platform, caller, courseId);
    }
    const pageOfA = await http(platform, 'GET', `${approvals('a')}?limit=1`, { token: caller.token });
    expect(pageOfA.body.next_cursor).toEqual(expect.any(String));
    const onB = await http(platform, 'GET', `${approvals('b')}?limit=1&cursor=${pageOfA.body.next_cursor}`, {
      token: caller.token,
    });
    expectProblem(onB, 400, 'curriculum:validation_failed');
    expect(onB.body.fieldErrors).toEqual([{ field: 'cursor', message: expect.any(String) }]);
  });

  it('replays under the same Idempotency-Key and refuses a missing key, a read-only token and bad bodies', async () => {
    const caller = await newTenant(platform);
    await authorCourse(platform, caller);
    const headers = key();
    const first = await approve(platform, caller, 'course', {}, headers);
    const replay = await approve(platform, caller, 'course', {}, headers);
    expect([replay.status, replay.headers.get('idempotency-replayed'), replay.body]).toEqual([200, 'true', first.body]);
    expectProblem(await approve(platform, caller, 'course', {}, {}), 400, 'curriculum:idempotency_key_required');
    const reader = await newTenant(platform, { tenantId: caller.tenantId, scopes: ['curriculum:read'] });
    expectProblem(await approve(platform, reader, 'course'), 403, 'curriculum:forbidden');
    const invalid = await approve(platform, caller, 'course', {
      approved_by: '',
      expected_course_graph_sha256: 'abc',
      extra: 1,
    });
    expectProblem(invalid, 400, 'curriculum:validation_failed');
    expect(invalid.body.fieldErrors.map((error: any) => error.field).sort()).toEqual([
      'approved_by',
      'expected_course_graph_sha256',
      'extra',
    ]);
    expectProblem(
      await approve(platform, caller, 'course', { provenance: { source: 'x', course_ref: 'other' } }),
      400,
      'curriculum:validation_failed',
    );
  });

  it('answers curriculum:not_found for unknown courses, non-root components and other tenants', async () => {
    const caller = await newTenant(platform);
    await authorCourse(platform, caller);
    expectProblem(await approve(platform, caller, 'nope'), 404, 'curriculum:not_found');
    expectProblem(await approve(platform, caller, 'course.u1'), 404, 'curriculum:not_found');
    const stranger = await newTenant(platform);
    expectProblem(await approve(platform, stranger, 'course'), 404, 'curriculum:not_found');
    expectProblem(
      await http(platform, 'GET', approvals('course'), { token: stranger.token }),
      404,
      'curriculum:not_found',
    );
    expectProblem(
      await http(platform, 'GET', approvals('course.u1'), { token: caller.token }),
      404,
      'curriculum:not_found',
    );
  });

  it('refuses each rule-9 precondition with nothing written', async () => {
    const caller = await newTenant(platform);
    await authorCourse(platform, caller, { courseId: 'draft', coursePublished: false });
    expectProblem(await approve(platform, caller, 'draft'), 409, 'curriculum:course_not_published');

    await createComponent(platform, caller, {
      component_id: 'empty',
      kind: 'course',
      alpha: { publication_status: 'published' },
    });
    await createComponent(platform, caller, {
      component_id: 'empty.u',
      kind: 'unit',
      parent_component_id: 'empty',
      alpha: { publication_status: 'published' },
    });
    expectProblem(await approve(platform, caller, 'empty'), 409, 'curriculum:lesson_structure_missing');

    const course = await authorCourse(platform, caller, { courseId: 'gaps' });
    await createComponent(platform, caller, {
      component_id: 'gaps.u1.unpinned',
      kind: 'practice',
      parent_component_id: 'gaps.u1',
      alpha: { scope_kc_refs: [course.kcId] },
    });
    const incomplete = await approve(platform, caller, 'gaps');
    expectProblem(incomplete, 409, 'curriculum:course_graph_incomplete');
    expect(incomplete.body.fieldErrors).toEqual([
      { field: 'components.gaps.u1.unpinned.alpha.target_ref', message: 'no exact content pin' },
    ]);

    const draftKc = await createKc(platform, caller);
    await authorCourse(platform, caller, { courseId: 'kcs' });
    expect(
      (
        await patchComponent(platform, caller, 'kcs.u1.l1', {
          alpha: { publication_status: 'published', target_ref: course.pin, scope_kc_refs: [draftKc.kc_id] },
        })
      ).status,
    ).toBe(200);
    const blocked = await approve(platform, caller, 'kcs');
    expectProblem(blocked, 409, 'curriculum:kc_not_approvable');
    expect(blocked.body.fieldErrors[0].field).toBe(`kc_refs.${draftKc.kc_id}`);
    expect(await approvalRows(caller.tenantId)).toEqual({ approvals: 0, snapshots: 0, firming: 0 });
  });

  it('compares both expected digests before writing: a wrong one is refused with nothing written', async () => {
    const caller = await newTenant(platform);
    await authorCourse(platform, caller);
    const wrong = 'f'.repeat(64);
    const refused = await approve(platform, caller, 'course', {
      expected_course_graph_sha256: wrong,
      expected_kc_snapshot_sha256: wrong,
    });
    expectProblem(refused, 409, 'curriculum:approval_digest_mismatch');
    expect(refused.body.fieldErrors.map((error: any) => error.field)).toEqual([
      'expected_course_graph_sha256',
      'expected_kc_snapshot_sha256',
    ]);
    expect(await approvalRows(caller.tenantId)).toEqual({ approvals: 0, snapshots: 0, firming: 0 });
    // The refusal names the current digests; sending them back approves.
    const accepted = await approve(platform, caller, 'course', {
      expected_course_graph_sha256: refused.body.course_graph_sha256,
      expected_kc_snapshot_sha256: refused.body.kc_snapshot_sha256,
    });
    expect(accepted.status).toBe(201);
    expect([accepted.body.expected_course_graph_sha256, accepted.body.course_graph_sha256]).toEqual([
      refused.body.course_graph_sha256,
      refused.body.course_graph_sha256,
    ]);
  });

  it('the database refuses UPDATE and DELETE of approvals and their snapshots', async () => {
    const caller = await newTenant(platform);
    await authorCourse(platform, caller);
    await approveOk(platform, caller, 'course');
    const { db } = platform.runtime.database;
    for (const statement of [
      sql`update curriculum.course_approvals set approved_by = 'x' where tenant_id = ${caller.tenantId}`,
      sql`delete from curriculum.course_approvals where tenant_id = ${caller.tenantId}`,
      sql`update curriculum.course_approval_kc_versions set version_number = 9 where tenant_id = ${caller.tenantId}`,
      sql`delete from curriculum.course_approval_kc_versions where tenant_id = ${caller.tenantId}`,
    ]) {
      const error = await db.execute(statement).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(`${(error as any)?.message} ${(error as any)?.cause?.message}`).toMatch(/append-only/);
    }
    expect(await approvalRows(caller.tenantId)).toEqual({ approvals: 1, snapshots: 1, firming: 1 });
  });

  it('course-approval firming events come only from an approval', async () => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const refused = await http(platform, 'POST', `${curriculumV1}/kc-firming-events`, {
      token: caller.token,
      headers: key(),
      body: { kc_version_id: kc.current_version_id, source: 'course_approval' },
    });
    expectProblem(refused, 422, 'curriculum:firming_source_refused');
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'two approvals racing with the same expected digests give exactly one approval (PostgreSQL only: PGlite has one connection)',
    async () => {
      const caller = await newTenant(platform);
      await authorCourse(platform, caller);
      const probe = await approve(platform, caller, 'course', { expected_course_graph_sha256: '0'.repeat(64) });
      const expected = {
        expected_course_graph_sha256: probe.body.course_graph_sha256,
        expected_kc_snapshot_sha256: probe.body.kc_snapshot_sha256,
      };
      const raced = await Promise.all([
        approve(platform, caller, 'course', expected),
        approve(platform, caller, 'course', expected),
      ]);
      expect(raced.map((reply) => reply.status).sort()).toEqual([200, 201]);
      expect(raced[0].body.approval_id).toBe(raced[1].body.approval_id);
      expect(await approvalRows(caller.tenantId)).toEqual({ approvals: 1, snapshots: 1, firming: 1 });
    },
  );
});
