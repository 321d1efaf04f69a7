// A program that uses the installed @verdict/client as any project would:
// it is copied into a scratch project outside the repository, type-checked
// there against the package's types, and run against a live server.
import { RunRuleDocument, VerdictClient, VerdictError, ViewerDocument, type RunRuleMutation } from '@verdict/client';

const url = process.env.VERDICT_URL;
const apiKey = process.env.VERDICT_API_KEY;
if (!url || !apiKey) {
  throw new Error('set VERDICT_URL and VERDICT_API_KEY');
}
const verdict = new VerdictClient({ url, apiKey });

const { viewer } = await verdict.request(ViewerDocument);
const role: 'ADMIN' | 'AUDITOR' | 'EDITOR' | 'PUBLISHER' | 'VIEWER' = viewer.role;

const rule = 'A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.';
const ran: RunRuleMutation = await verdict.request(RunRuleDocument, {
  input: { rule, data: { Person: { age: 70 } } },
});
// Every mutation field is nullable in the schema; request throws on any
// error, so the run it returns is there.
const runRule = ran.runRule!;
const condition = runRule.trace.execution[0]?.conditions[0];
if (runRule.result !== true || condition?.__typename !== 'ComparisonCondition' || condition.operator !== 'GREATER_THAN_OR_EQUAL') {
  throw new Error(`unexpected run result: ${JSON.stringify(runRule)}`);
}

try {
  await new VerdictClient({ url, apiKey: 'not-a-key' }).request(ViewerDocument);
  throw new Error('a wrong key was accepted');
} catch (err) {
  if (!(err instanceof VerdictError) || err.code !== 'unauthenticated') {
    throw err;
  }
}
console.log(`ran a rule as ${role}: result ${runRule.result}, ${condition.operator}`);
