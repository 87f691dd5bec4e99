import fs from 'node:fs';
import {
  isTypeDefinitionNode,
  Kind,
  parse,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  type TypeDefinitionNode,
} from 'graphql';
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

/**
 * Every type and field of the API schema, as `Type` or `Type.field`: the supergraph without federation's own definitions
 * (link__*, join__*), as it marks nothing @inaccessible.
 */
function apiSchemaMembers(): Array<[string, TypeDefinitionNode | FieldDefinitionNode | InputValueDefinitionNode]> {
  const types = parse(fs.readFileSync(SUPERGRAPH_PATH, 'utf8')).definitions.filter(isTypeDefinitionNode);
  return types
    .filter((type) => !/^(link|join)__/.test(type.name.value))
    .flatMap((type) => [
      [type.name.value, type] as [string, TypeDefinitionNode],
      ...('fields' in type ? (type.fields ?? []) : []).map(
        (field): [string, FieldDefinitionNode | InputValueDefinitionNode] => [
          `${type.name.value}.${field.name.value}`,
          field,
        ],
      ),
    ]);
}

/** The names of the members without a description. */
const undescribed = (members: Array<[string, { description?: { value: string } }]>) =>
  members.filter(([, member]) => !member.description?.value.trim()).map(([name]) => name);

describe('schema/supergraph.graphql', () => {
  it('is the current composition of the subgraph SDL files (run npm run compose)', () => {
    expect(fs.readFileSync(SUPERGRAPH_PATH, 'utf8')).toBe(composeSupergraph());
  });

  // Introspection is a GraphQL client's only documentation: each root field says what it does, as its REST path does.
  it('describes every Query and Mutation field', () => {
    expect(undescribed(rootFields())).toEqual([]);
  });

  // Apollo Sandbox shows a type or field without a description as a bare name.
  it('describes every type and field of the API schema', () => {
    expect(undescribed(apiSchemaMembers())).toEqual([]);
  });

  it('describes every ifMatch and idempotencyKey argument, as the REST headers they stand for are described', () => {
    const undescribedArguments = rootFields().flatMap(([name, field]) =>
      (field.arguments ?? [])
        .filter((argument) => ['ifMatch', 'idempotencyKey'].includes(argument.name.value))
        .filter((argument) => !argument.description?.value.trim())
        .map((argument) => `${name}(${argument.name.value})`),
    );
    expect(undescribedArguments).toEqual([]);
  });
});
