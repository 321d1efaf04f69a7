// The Schema tab's text as the API takes a policy's schema.
import { jsonProblem } from './editor/jsonEditor';
import { formatJSON } from './format';

/** A schema as the tab shows it: empty for none. */
export function schemaText(schema: unknown): string {
  return schema === null || schema === undefined ? '' : formatJSON(schema);
}

/**
 * The schema a text stands for: null for a blank text (no schema), else the
 * JSON Schema it holds (an object, or true or false), or the problem that
 * keeps it from being one, which the server would refuse.
 */
export function schemaOf(text: string): { value: unknown; problem: '' } | { value: undefined; problem: string } {
  if (!text.trim()) return { value: null, problem: '' };
  const problem = jsonProblem(text);
  if (problem) return { value: undefined, problem: `Not valid JSON: ${problem}` };
  const value = JSON.parse(text) as unknown;
  if (value === null || typeof value === 'boolean' || (typeof value === 'object' && !Array.isArray(value))) {
    return { value, problem: '' };
  }
  return { value: undefined, problem: 'A JSON Schema is an object, or true or false.' };
}
