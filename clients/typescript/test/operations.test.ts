// The operations against the committed schema: every root field of Query
// and Mutation must have an operation, so that the client cannot fall
// behind the schema when a field is added to graph/*.graphqls.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import {
  Kind,
  buildSchema,
  parse,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type SelectionSetNode,
} from 'graphql';

// This file runs from build/test/; the package is three levels up, the
// repository five.
const packageDir = resolve(fileURLToPath(import.meta.url), '../../..');
const schemaDir = resolve(packageDir, '../../graph');
const operationsDir = join(packageDir, 'operations');

// read joins the files of dir whose names end with ext, as codegen.yml
// globs them.
function read(dir: string, ext: string): string {
  return readdirSync(dir)
    .filter((name) => name.endsWith(ext))
    .sort()
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('\n');
}

const schema = buildSchema(read(schemaDir, '.graphqls'));
const operations: DocumentNode = parse(read(operationsDir, '.graphql'));

test('the operations validate against the schema', () => {
  assert.deepEqual(
    validate(schema, operations).map((e) => e.message),
    [],
  );
});

test('every root query and mutation field has an operation', () => {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of operations.definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(def.name.value, def);
    }
  }
  // The root fields an operation selects, through fragments too.
  const selected = (set: SelectionSetNode, into: Set<string>): void => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        into.add(sel.name.value);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        selected(sel.selectionSet, into);
      } else {
        selected(fragments.get(sel.name.value)!.selectionSet, into);
      }
    }
  };
  const covered = new Map<string, Set<string>>([
    ['query', new Set()],
    ['mutation', new Set()],
    ['subscription', new Set()],
  ]);
  for (const def of operations.definitions) {
    if (def.kind === Kind.OPERATION_DEFINITION) {
      selected(def.selectionSet, covered.get(def.operation)!);
    }
  }

  const roots: [string, GraphQLObjectType | null | undefined][] = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ];
  const missing = roots.flatMap(([operation, type]) =>
    Object.keys(type?.getFields() ?? {})
      .filter((field) => !covered.get(operation)!.has(field))
      .map((field) => `${type!.name}.${field}`),
  );
  assert.deepEqual(missing, [], `root fields without an operation in operations/: ${missing.join(', ')}`);
});
