// The server's checks the editor and the tests tab ask for.
import { CheckRuleDiagnosticsDocument, CheckRuleDocument, TestPolicyDocument } from '@verdict/client';
import type { PolicyTestInput, TestPolicyMutation } from '@verdict/client';
import { answerTooLarge } from './api';
import type { Api } from './api';
import type { CheckFn } from './editor/ruleEditor';

export type TestReport = NonNullable<TestPolicyMutation['testPolicy']>;

/**
 * Reads rule text the way evaluation would: tokens for highlighting, diagnostics with suggestions.
 * schema gives the JSON Schema of the policy's data at the time of each check, whose names the rule's are checked against.
 * Asked for tokens, a check the server refuses for the size of its answer
 * (it charges every token against the bound of one request's answer, and a
 * text of very many tokens exceeds it) is asked again for the diagnostics
 * alone, which any text a policy may hold gets: its tokens are null then.
 */
export function checkRule(api: Api, schema: () => unknown = () => null): CheckFn {
  return async (rule, tokens) => {
    const variables = { rule, schema: schema() ?? null };
    if (tokens) {
      try {
        return (await api.request(CheckRuleDocument, variables)).checkRule;
      } catch (err) {
        if (!answerTooLarge(err)) throw err;
      }
    }
    return { tokens: null, diagnostics: (await api.request(CheckRuleDiagnosticsDocument, variables)).checkRule.diagnostics };
  };
}

/** Runs tests on the server against a stored record: each with its expected and actual result and explanation. */
export async function testPolicy(api: Api, policyId: string, tests: PolicyTestInput[]): Promise<TestReport> {
  return (await api.request(TestPolicyDocument, { input: { policyId, tests } })).testPolicy!;
}
