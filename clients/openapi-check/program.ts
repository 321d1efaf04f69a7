// A program written against the types openapi-typescript generates from
// rest/openapi.json (build/openapi.d.ts): it builds a run request and
// reads a trace. CI type-checks it, so the document stays usable from
// TypeScript: free-form data is an open object, results and traces are
// typed.
import type { components, paths } from './build/openapi.js';

type RunRequest = paths['/run']['post']['requestBody']['content']['application/json'];
type RunResult = paths['/run']['post']['responses'][200]['content']['application/json'];
type PolicyRunRequest = paths['/run/policy/{baseId}']['post']['requestBody']['content']['application/json'];
type Condition = components['schemas']['ConditionTrace'];

export const request: RunRequest = {
  rule: 'A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.',
  data: { Person: { age: 70, name: 'Ada', tags: ['member'] } },
};

export const stored: PolicyRunRequest = { data: { Person: { age: 40 } } };

// @ts-expect-error: a rule is text, not a number.
export const wrongRule: RunRequest = { rule: 65, data: {} };

// @ts-expect-error: data is an object, not a list.
export const wrongData: PolicyRunRequest = { data: [1, 2] };

function explain(c: Condition): string {
  if ('operator' in c) {
    const compared = c.evaluation_details ? ` (${String(c.evaluation_details.left_value.value)} against ${String(c.evaluation_details.right_value.value)})` : '';
    return `${c.property.path} ${c.operator} ${c.value.type} ${JSON.stringify(c.value.value)}${compared}: ${c.result}`;
  }
  return `refers to ${c.rule_name}: ${c.result}`;
}

/** Why a run came out as it did: one line per condition of every rule. */
export function reasons(result: RunResult): string[] {
  const lines: string[] = [`result ${result.result}${result.error ? `, error ${result.error}` : ''}`];
  for (const rule of result.trace.execution) {
    lines.push(`${rule.label ?? rule.selector.value}: ${rule.outcome.value} ${rule.result}`);
    lines.push(...rule.conditions.map(explain));
  }
  return lines;
}
