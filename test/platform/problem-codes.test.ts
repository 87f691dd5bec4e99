import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphQLError } from 'graphql';
import { DomainError, allProblems, type ProblemCode } from '../../platform/errors.ts';
import { formatGraphQLError } from '../../platform/graphql.ts';
import '../../subgraphs/content/errors.ts';
import '../../subgraphs/curriculum/errors.ts';
import '../../subgraphs/events/errors.ts';
import '../../subgraphs/people/standin.ts';

/** The problem table and the code that throws agree: nothing registered is dead, nothing thrown is unregistered. */

const ROOTS = ['platform', 'gateway', 'subgraphs'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const sources = ROOTS.flatMap(sourceFiles).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
const registered = new Set(allProblems().map((problem) => problem.code));

/** `const NAME = 'code'` (typed or not): the constants a code is thrown through. */
const constants = new Map<string, string>();
for (const { text } of sources) {
  for (const match of text.matchAll(/const ([A-Z_]+)(?:: \w+)? = '([^']+)'/g)) constants.set(match[1], match[2]);
}

/** Outside its own table, a code is used as a literal or through a constant that holds it. */
function isUsed(code: string): boolean {
  const names = [...constants].filter(([, value]) => value === code).map(([name]) => name);
  return sources.some(({ text }) => {
    const withoutTable = text.replace(/^\s*'?[\w.:]+'?: \{ status: \d+, title: '[^']*' \},?$/gm, '');
    return (
      withoutTable.includes(`'${code}'`) ||
      names.some((name) => new RegExp(`\\b${name}\\b(?! =|: \\w+ =)`).test(withoutTable))
    );
  });
}

function thrownCodes(): string[] {
  const codes = new Set<string>();
  for (const { text } of sources) {
    for (const match of text.matchAll(/new DomainError\(\s*(?:'([^']+)'|([A-Z_]+)\b)/g)) {
      const code = match[1] ?? constants.get(match[2]);
      if (code) codes.add(code);
    }
  }
  return [...codes];
}

describe('problem codes', () => {
  it('throws every registered code somewhere', () => {
    expect([...registered].filter((code) => !isUsed(code))).toEqual([]);
  });

  it('registers every code that is thrown', () => {
    const thrown = thrownCodes();
    expect(thrown.length).toBeGreaterThan(30);
    expect(thrown.filter((code) => !registered.has(code))).toEqual([]);
  });
});

describe('an unregistered code', () => {
  it('reaches a GraphQL client as internal_error, without its code or detail', () => {
    const mistyped = new DomainError('curriculum:kc_not_activ' as ProblemCode, 'KC k-1 is not active');
    const error = new GraphQLError(mistyped.message, { originalError: mistyped, path: ['kc'] });
    const formatted = formatGraphQLError(error.toJSON(), error, { prefix: 'curriculum', separator: ':' });
    expect(formatted.extensions).toEqual({ code: 'curriculum:internal_error', status: 500 });
    expect(JSON.stringify(formatted)).not.toContain('kc_not_activ');
    expect(JSON.stringify(formatted)).not.toContain('k-1');
    expect(mistyped.stack).toContain('problem-codes.test.ts');
  });
});
