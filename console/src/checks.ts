// The server's checks the editor and the tests tab ask for.
import { CheckRuleDocument, RunPolicyVersionDocument } from '@verdict/client';
import type { PolicyTestInput } from '@verdict/client';
import type { Api } from './api';
import type { CheckFn } from './editor/ruleEditor';

/** Reads rule text the way evaluation would: tokens for highlighting, diagnostics with suggestions. */
export function checkRule(api: Api): CheckFn {
  return async (rule) => (await api.request(CheckRuleDocument, { rule })).checkRule;
}

export interface TestResult {
  name: string;
  expected: unknown;
  actual: unknown;
  passed: boolean;
  explanation: string;
  error?: string | null;
}

export interface TestReport {
  passed: boolean;
  total: number;
  failed: number;
  results: TestResult[];
}

/** Runs tests against a stored record, each as a run of that record, and compares results with expectations. */
export async function testPolicy(api: Api, policyId: string, tests: PolicyTestInput[]): Promise<TestReport> {
  const results = await Promise.all(
    tests.map(async (t): Promise<TestResult> => {
      const { runPolicyVersion: r } = await api.request(RunPolicyVersionDocument, { input: { policyId, data: t.data } });
      return { name: t.name, expected: t.expect, actual: r.result, passed: !r.error && r.result === t.expect, explanation: r.explanation, error: r.error };
    }),
  );
  const failed = results.filter((r) => !r.passed).length;
  return { passed: failed === 0, total: results.length, failed, results };
}
