// The server's checks the editor and the tests tab ask for.
import { CheckRuleDocument, TestPolicyDocument } from '@verdict/client';
import type { PolicyTestInput, TestPolicyMutation } from '@verdict/client';
import type { Api } from './api';
import type { CheckFn } from './editor/ruleEditor';

export type TestReport = NonNullable<TestPolicyMutation['testPolicy']>;

/**
 * Reads rule text the way evaluation would: tokens for highlighting, diagnostics with suggestions.
 * schema gives the JSON Schema of the policy's data at the time of each check, whose names the rule's are checked against.
 */
export function checkRule(api: Api, schema: () => unknown = () => null): CheckFn {
  return async (rule) => (await api.request(CheckRuleDocument, { rule, schema: schema() ?? null })).checkRule;
}

/** Runs tests on the server against a stored record: each with its expected and actual result and explanation. */
export async function testPolicy(api: Api, policyId: string, tests: PolicyTestInput[]): Promise<TestReport> {
  return (await api.request(TestPolicyDocument, { input: { policyId, tests } })).testPolicy!;
}
