// TEMPORARY until checkRule and testPolicy are in the schema.
import type { Api } from './api';
import type { PolicyTestInput } from '@verdict/client';
import type { CheckFn } from './editor/ruleEditor';

export interface TestReport {
  passed: boolean;
  total: number;
  failed: number;
  results: { name: string; expected: unknown; actual: unknown; passed: boolean; explanation: string; error?: string | null }[];
}

export function checkRule(_api: Api): CheckFn | null {
  return null;
}

export async function testPolicy(_api: Api, _id: string, _tests: PolicyTestInput[]): Promise<TestReport> {
  throw new Error('not yet');
}
