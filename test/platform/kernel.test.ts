import { createHash } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CursorCodec, pageOf } from '../../platform/cursor.ts';
import { DomainError, describeProblem, problemTypeUri, toProblem } from '../../platform/errors.ts';
import { loadConfig } from '../../platform/config.ts';
import { checkIfMatch, etagOf } from '../../platform/etag.ts';
import { canonicalJson, requestHash } from '../../platform/idempotency.ts';
import { snakeKeys } from '../../platform/naming.ts';
import { fieldErrorsOf } from '../../platform/validation.ts';
import { z } from 'zod';

const ids = { requestId: 'r-1', traceId: 't-1' };
const origin = 'https://api.school.example';

describe('problems', () => {
  it('renders platform codes in the namespace of the answering service', () => {
    const problem = toProblem(
      new DomainError('not_found', 'No such thing.'),
      ids,
      { prefix: 'curriculum', separator: ':' },
      origin,
    );
    expect(problem).toMatchObject({
      code: 'curriculum:not_found',
      status: 404,
      detail: 'No such thing.',
      requestId: 'r-1',
      traceId: 't-1',
    });
    expect(toProblem(new DomainError('not_found'), ids, { prefix: 'content', separator: '.' }, origin).code).toBe(
      'content.not_found',
    );
  });

  it('types a problem by the absolute URI that documents its code, under the configured public origin', () => {
    const problem = toProblem(new DomainError('not_found'), ids, { prefix: 'curriculum', separator: ':' }, origin);
    expect(problem.type).toBe('https://api.school.example/problems/curriculum%3Anot_found');
    expect(new URL(problem.type).origin).toBe(origin);
    expect(problemTypeUri(`${origin}/`, 'content.item_exists')).toBe(`${origin}/problems/content.item_exists`);
    expect(loadConfig({ PUBLIC_ORIGIN: origin }).publicOrigin).toBe(origin);
    expect(describeProblem('curriculum:not_found')).toMatchObject({ code: 'curriculum:not_found', status: 404 });
    expect(describeProblem('content.validation_failed')).toMatchObject({ status: 400 });
    expect(describeProblem('content.nothing_like_this')).toBeUndefined();
  });

  it('never leaks the message or stack of an unexpected error', () => {
    const problem = toProblem(
      new Error('password=hunter2 at db.ts:12'),
      ids,
      { prefix: 'content', separator: '.' },
      origin,
    );
    expect(problem).toMatchObject({ status: 500, code: 'content.internal_error' });
    expect(JSON.stringify(problem)).not.toContain('hunter2');
  });

  it('answers an unregistered code as an internal error, not as a client error', () => {
    // @ts-expect-error a mistyped code does not compile; at run time it is still answered as ours.
    const problem = toProblem(new DomainError('made_up:code', 'secret detail'), ids, undefined, origin);
    expect(problem.status).toBe(500);
    expect(JSON.stringify(problem)).not.toContain('secret detail');
  });
});

describe('field errors', () => {
  it('names each unknown field on its own, with its dotted path', () => {
    const schema = z.object({ name: z.string(), alpha: z.object({ kind: z.string() }).strict() }).strict();
    const parsed = schema.safeParse({ name: 1, colour: 'red', size: 2, alpha: { kind: 'x', shade: 'dark' } });
    expect(parsed.success ? [] : fieldErrorsOf(parsed.error)).toEqual(
      expect.arrayContaining([
        { field: 'name', message: expect.any(String) },
        { field: 'colour', message: 'unknown field' },
        { field: 'size', message: 'unknown field' },
        { field: 'alpha.shade', message: 'unknown field' },
      ]),
    );
  });
});

describe('cursors', () => {
  const codec = new CursorCodec(randomBytes(32));

  it('round-trips a position for the same filters', () => {
    const cursor = codec.encode(['2026-01-01', 'b'], { kind: 'lesson' });
    expect(codec.decode(cursor, { kind: 'lesson' }).after).toEqual(['2026-01-01', 'b']);
  });

  it('refuses edited, foreign and re-filtered cursors with a 400', () => {
    const cursor = codec.encode([1], { a: 1 });
    const [body, signature] = cursor.split('.');
    const edited = `${Buffer.from(JSON.stringify({ a: [999], f: JSON.parse(Buffer.from(body, 'base64url').toString()).f })).toString('base64url')}.${signature}`;
    for (const bad of [edited, 'garbage', `${cursor}.x`, new CursorCodec(randomBytes(32)).encode([1], { a: 1 })]) {
      expect(() => codec.decode(bad, { a: 1 })).toThrow(DomainError);
    }
    expect(() => codec.decode(cursor, { a: 2 })).toThrow(/other filters/);
  });

  it('cuts pages from limit + 1 rows', () => {
    const page = pageOf(
      [1, 2, 3],
      2,
      (row) => [row],
      (row) => row * 10,
      codec,
      {},
    );
    expect(page.data).toEqual([10, 20]);
    expect(codec.decode(page.next_cursor as string, {}).after).toEqual([2]);
    expect(
      pageOf(
        [1, 2],
        2,
        (row) => [row],
        (row) => row,
        codec,
        {},
      ).next_cursor,
    ).toBeNull();
  });
});

describe('ETags', () => {
  it('change with the version and are checked strictly', () => {
    const current = etagOf('c-1', 2);
    expect(etagOf('c-1', 1)).not.toBe(current);
    expect(() => checkIfMatch(current, current)).not.toThrow();
    expect(() => checkIfMatch(`W/${current}`, current)).not.toThrow();
    expect(() => checkIfMatch(etagOf('c-1', 1), current)).toThrow(
      expect.objectContaining({ code: 'precondition_failed' }),
    );
    expect(() => checkIfMatch(undefined, current)).toThrow(expect.objectContaining({ code: 'precondition_required' }));
    expect(() => checkIfMatch(current.replaceAll('"', ''), current)).toThrow(
      expect.objectContaining({ code: 'if_match_malformed' }),
    );
    expect(() => checkIfMatch(` "x",, ${current} `, current)).not.toThrow();
  });

  it('kept tags are the hash of their own identity and version, never an older version', () => {
    const first = Array.from({ length: 12_000 }, (_, version) => etagOf('c-2', version));
    expect(new Set(first).size).toBe(12_000);
    // Asked again after the kept tags were cleared and refilled: the same tag for the same pair.
    expect(Array.from({ length: 12_000 }, (_, version) => etagOf('c-2', version))).toEqual(first);
    expect(etagOf('c-2', 12_000)).not.toBe(etagOf('c-2', 11_999));
    expect(etagOf('c-1', 2)).toBe(`"${createHash('sha256').update('c-1\u00002').digest('base64url').slice(0, 22)}"`);
  });
});

describe('idempotency request hashing', () => {
  it('ignores key order but not values', () => {
    expect(canonicalJson({ b: 1, a: [1, { d: 2, c: 3 }] })).toBe('{"a":[1,{"c":3,"d":2}],"b":1}');
    expect(requestHash({ a: 1, b: 2 })).toBe(requestHash({ b: 2, a: 1 }));
    expect(requestHash({ a: 1 })).not.toBe(requestHash({ a: 2 }));
  });
});

describe('GraphQL input naming', () => {
  it('turns camelCase keys into the spec names and drops nulls', () => {
    expect(
      snakeKeys({ contentVersionId: 'v', targetRef: { contentKind: 'article', module: null }, list: [{ kcRef: 'k' }] }),
    ).toEqual({
      content_version_id: 'v',
      target_ref: { content_kind: 'article' },
      list: [{ kc_ref: 'k' }],
    });
  });
});
