import fs from 'node:fs';
import {
  isTypeDefinitionNode,
  Kind,
  parse,
  type EnumValueDefinitionNode,
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
 * The types of the API schema: the supergraph without federation's own definitions (link__*, join__*), as it marks
 * nothing @inaccessible.
 */
const apiSchemaTypes = () =>
  parse(fs.readFileSync(SUPERGRAPH_PATH, 'utf8'))
    .definitions.filter(isTypeDefinitionNode)
    .filter((type) => !/^(link|join)__/.test(type.name.value));

/** Every type and field of the API schema, as `Type` or `Type.field`. */
function apiSchemaMembers(): Array<[string, TypeDefinitionNode | FieldDefinitionNode | InputValueDefinitionNode]> {
  return apiSchemaTypes().flatMap((type) => [
    [type.name.value, type] as [string, TypeDefinitionNode],
    ...('fields' in type ? (type.fields ?? []) : []).map(
      (field): [string, FieldDefinitionNode | InputValueDefinitionNode] => [
        `${type.name.value}.${field.name.value}`,
        field,
      ],
    ),
  ]);
}

/** Every argument and enum value of the API schema, as `Type.field(argument)` or `Enum.VALUE`. */
function apiSchemaInputsAndValues(): Array<[string, InputValueDefinitionNode | EnumValueDefinitionNode]> {
  return apiSchemaTypes().flatMap((type): Array<[string, InputValueDefinitionNode | EnumValueDefinitionNode]> =>
    type.kind === Kind.ENUM_TYPE_DEFINITION
      ? (type.values ?? []).map((value) => [`${type.name.value}.${value.name.value}`, value])
      : type.kind === Kind.OBJECT_TYPE_DEFINITION || type.kind === Kind.INTERFACE_TYPE_DEFINITION
        ? (type.fields ?? []).flatMap((field) =>
            (field.arguments ?? []).map((argument): [string, InputValueDefinitionNode] => [
              `${type.name.value}.${field.name.value}(${argument.name.value})`,
              argument,
            ]),
          )
        : [],
  );
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

  // Sandbox shows an argument or enum value without one as a bare name: a filter's format, default and REST
  // parameter, or what the server does in a state, would be left to guesswork.
  it('describes every argument and enum value of the API schema', () => {
    expect(undescribed(apiSchemaInputsAndValues())).toEqual([]);
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
