import { describe, expect, it } from 'vitest';
import type { GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { DomainError } from './errors.ts';
import { LocalSubgraphDataSource, subgraphSchema, type GraphContext } from './graphql.ts';

const SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  type Query { note(id: ID!): Note  notes: [Note!]! }
  type Note @key(fields: "noteId") { noteId: ID!  bodyText: String  wordCount: Int! }
`;

/** A data source over a store the test writes to between calls: what the compiled operations must read live. */
function notesSubgraph() {
  const store = new Map<string, { note_id: string; body_text: string | null; word_count: number | null }>();
  const schema = subgraphSchema(SDL, {
    Query: {
      note: (_: unknown, { id }: { id: string }) => {
        if (id === 'forbidden') throw new DomainError('forbidden');
        if (id === 'broken') throw new Error('a bug');
        return store.get(id) ?? null;
      },
      notes: () => [...store.values()],
    },
  });
  const unexpected: unknown[] = [];
  const source = new LocalSubgraphDataSource(schema, { prefix: 'notes', separator: ':' }, (error) =>
    unexpected.push(error),
  );
  const send = (query: string, variables: Record<string, unknown> = {}, operationName?: string) =>
    source.process({
      request: { query, variables, operationName },
      context: {} as GraphContext,
    } as GraphQLDataSourceProcessOptions<GraphContext>);
  return { store, send, unexpected };
}

const randomId = () => `note-${Math.random().toString(36).slice(2)}`;

describe('LocalSubgraphDataSource', () => {
  it('runs the compiled operation against the current data on every call: a write is seen by the next read', async () => {
    const { store, send } = notesSubgraph();
    const id = randomId();
    const query = 'query($id: ID!) { note(id: $id) { noteId bodyText wordCount } }';
    expect((await send(query, { id })).data).toEqual({ note: null });
    store.set(id, { note_id: id, body_text: 'first', word_count: 1 });
    expect((await send(query, { id })).data).toEqual({ note: { noteId: id, bodyText: 'first', wordCount: 1 } });
    store.set(id, { note_id: id, body_text: 'second draft', word_count: 2 });
    expect((await send(query, { id })).data).toEqual({
      note: { noteId: id, bodyText: 'second draft', wordCount: 2 },
    });
  });

  it('keeps one compiled operation per operation name: two operations of one text answer each their own', async () => {
    const { store, send } = notesSubgraph();
    const id = randomId();
    store.set(id, { note_id: id, body_text: 'text', word_count: 1 });
    const query = 'query One($id: ID!) { note(id: $id) { bodyText } } query All { notes { noteId } }';
    expect((await send(query, { id }, 'One')).data).toEqual({ note: { bodyText: 'text' } });
    expect((await send(query, {}, 'All')).data).toEqual({ notes: [{ noteId: id }] });
  });

  it("applies the operation's variable defaults when the request leaves the variable out", async () => {
    const { store, send } = notesSubgraph();
    const id = randomId();
    store.set(id, { note_id: id, body_text: 'by default', word_count: 2 });
    const query = `query Defaulted($id: ID! = "${id}", $other: ID = "absent") { note(id: $id) { bodyText } other: note(id: $other) { noteId } }`;
    expect(await send(query, {}, 'Defaulted')).toEqual({ data: { note: { bodyText: 'by default' }, other: null } });
    expect((await send(query, { id: 'missing', other: id }, 'Defaulted')).data).toEqual({
      note: null,
      other: { noteId: id },
    });
  });

  it('answers validation errors, domain errors with their problem code, and reports unexpected errors', async () => {
    const { store, send, unexpected } = notesSubgraph();
    expect((await send('{ note(id: "x") { missingField } }')).errors?.[0].message).toContain('missingField');
    const refused = await send('{ note(id: "forbidden") { noteId } }');
    expect(refused.data).toEqual({ note: null });
    expect(refused.errors?.[0].extensions?.code).toBe('notes:forbidden');
    expect(unexpected).toHaveLength(0);
    // A null in a non-null field nulls its parent, as graphql-js does.
    const id = randomId();
    store.set(id, { note_id: id, body_text: null, word_count: null });
    const nulled = await send('query($id: ID!) { note(id: $id) { bodyText wordCount } }', { id });
    expect(nulled.data).toEqual({ note: null });
    expect(nulled.errors?.[0].path).toEqual(['note', 'wordCount']);
    // An unexpected error is handed to the logger and its message kept from the caller.
    const broken = await send('{ note(id: "broken") { noteId } }');
    expect(broken.errors?.[0].message).not.toContain('a bug');
    expect(unexpected).toEqual([new Error('a bug')]);
  });
});
