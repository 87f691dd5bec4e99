import fs from 'node:fs';
import { Kind, parse, type FieldDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { composeSupergraph } from '../../schema/compose.ts';
import { SUPERGRAPH_PATH } from '../../gateway/platform.ts';

/** The Query and Mutation fields of the supergraph, as `Type.field`. */
function rootFields(): Array<[string, FieldDefinitionNode]> {
  return parse(fs.readFileSync(SUPERGRAPH_PATH, 'utf8')).definitions.flatMap((definition) =>
    definition.kind === Kind.OBJECT_TYPE_DEFINITION && ['Query', 'Mutation'].includes(definition.name.value)
      ? (definition.fields ?? []).map((field): [string, FieldDefinitionNode] => [
          `${definition.name.value}.${field.name.value}`,
          field,
        ])
      : [],
  );
}

describe('schema/supergraph.graphql', () => {
  it('is the current composition of the subgraph SDL files (run npm run compose)', () => {
    expect(fs.readFileSync(SUPERGRAPH_PATH, 'utf8')).toBe(composeSupergraph());
  });

  // Introspection is a GraphQL client's only documentation: each root field says what it does, as its REST path does.
  it('describes every Query and Mutation field', () => {
    expect(
      rootFields()
        .filter(([, field]) => !field.description?.value.trim())
        .map(([name]) => name),
    ).toEqual([]);
  });

  it('describes every ifMatch and idempotencyKey argument, as the REST headers they stand for are described', () => {
    const undescribed = rootFields().flatMap(([name, field]) =>
      (field.arguments ?? [])
        .filter((argument) => ['ifMatch', 'idempotencyKey'].includes(argument.name.value))
        .filter((argument) => !argument.description?.value.trim())
        .map((argument) => `${name}(${argument.name.value})`),
    );
    expect(undescribed).toEqual([]);
  });
});
