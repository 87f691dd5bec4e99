import fs from 'node:fs';
import {
  isTypeDefinitionNode,
  Kind,
  parse,
  type ConstDirectiveNode,
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
 * The subgraphs whose SDL describes every type and field (join__Graph names). Curriculum is left: its SDL still
 * has types and fields without a description.
 */
const DESCRIBED_GRAPHS = ['EVENTS', 'CONTENT'];

/** The join__Graph names of a definition's `@join__type` or `@join__field` directives. */
const graphsOf = (directives: readonly ConstDirectiveNode[] = [], directive: string) =>
  directives
    .filter((node) => node.name.value === directive)
    .flatMap((node) => node.arguments ?? [])
    .flatMap((argument) =>
      argument.name.value === 'graph' && argument.value.kind === Kind.ENUM ? [argument.value.value] : [],
    );

/**
 * Every type and field of the API schema that a described subgraph serves, as `Type` or `Type.field`. Federation's
 * own definitions (link__*, join__*) are no part of the API schema; a field without `@join__field` is served by
 * its type's subgraphs.
 */
function describedGraphMembers(): Array<[string, TypeDefinitionNode | FieldDefinitionNode | InputValueDefinitionNode]> {
  const served = (graphs: string[]) => graphs.some((graph) => DESCRIBED_GRAPHS.includes(graph));
  const types = parse(fs.readFileSync(SUPERGRAPH_PATH, 'utf8')).definitions.filter(isTypeDefinitionNode);
  return types.flatMap((type) => {
    if (/^(link|join)__/.test(type.name.value)) return [];
    const typeGraphs = graphsOf(type.directives, 'join__type');
    const fields: ReadonlyArray<FieldDefinitionNode | InputValueDefinitionNode> =
      'fields' in type ? (type.fields ?? []) : [];
    return [
      ...(served(typeGraphs) ? [[type.name.value, type] as [string, TypeDefinitionNode]] : []),
      ...fields
        .filter((field) => {
          const fieldGraphs = graphsOf(field.directives, 'join__field');
          return served(fieldGraphs.length > 0 ? fieldGraphs : typeGraphs);
        })
        .map((field): [string, FieldDefinitionNode | InputValueDefinitionNode] => [
          `${type.name.value}.${field.name.value}`,
          field,
        ]),
    ];
  });
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
  it('describes every type and field of the API schema served by a described subgraph', () => {
    expect(undescribed(describedGraphMembers())).toEqual([]);
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
