// End to end: the generated client against a real `verdict serve`. Each
// area of the schema has its own describe block over one shared server;
// flows, groups and the audit log get theirs as their GraphQL lands.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
  CreatePolicyDocument,
  CreatePolicyDraftFromVersionDocument,
  DeletePolicyDocument,
  PoliciesDocument,
  PolicyDocument,
  PolicyVersionsDocument,
  PublishPolicyDocument,
  RunPolicyDocument,
  RunPolicyVersionDocument,
  RunRuleDocument,
  UpdatePolicyDraftDocument,
  VerdictClient,
  VerdictError,
  ViewerDocument,
  type RunResultFieldsFragment,
} from '../src/client.js';
import { adminKey, startVerdict, type Verdict } from './verdict.js';

const seniorRule = 'A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.';

let verdict: Verdict;
let admin: VerdictClient;
let viewer: VerdictClient;

before(async () => {
  verdict = await startVerdict();
  admin = new VerdictClient({ url: verdict.url, apiKey: adminKey });
  await verdict.admin('user', 'create', '--email', 'viewer@localhost');
  await verdict.admin('member', 'add', '--org', 'Default', '--email', 'viewer@localhost', '--role', 'viewer');
  const key = (await verdict.admin('key', 'create', '--org', 'Default', '--user-email', 'viewer@localhost', '--scope', 'view')) as {
    secret: string;
  };
  viewer = new VerdictClient({ url: verdict.url, apiKey: key.secret });
});

after(async () => {
  await verdict?.stop();
});

// rejectsWith checks that a request fails with the API's error code.
async function rejectsWith(request: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(request, (err: unknown) => {
    assert.ok(err instanceof VerdictError, `${err} is not a VerdictError`);
    assert.equal(err.code, code, err.message);
    return true;
  });
}

type Condition = RunResultFieldsFragment['trace']['execution'][number]['conditions'][number];
type Comparison = Extract<Condition, { __typename: 'ComparisonCondition' }>;

// firstComparison is the golden rule's first condition, which must be a
// comparison.
function firstComparison(res: RunResultFieldsFragment): Comparison {
  const cond = res.trace.execution[0]?.conditions[0];
  assert.ok(cond?.__typename === 'ComparisonCondition', `first condition ${JSON.stringify(cond)}`);
  return cond;
}

describe('viewer', () => {
  test('names the caller, its organization and its role', async () => {
    const { viewer: me } = await admin.request(ViewerDocument);
    assert.equal(me.role, 'ADMIN');
    assert.equal(me.organization.name, 'Default');
    assert.equal(me.user?.email, 'admin@localhost');
    assert.equal(me.key.scope, 'ADMIN');
  });

  test('a viewer key acts as a viewer', async () => {
    const { viewer: me } = await viewer.request(ViewerDocument);
    assert.equal(me.role, 'VIEWER');
    assert.equal(me.key.scope, 'VIEW');
  });

  test('an unknown key is unauthenticated', async () => {
    const stranger = new VerdictClient({ url: verdict.url, apiKey: 'not-a-key-of-this-server-0123456789' });
    await rejectsWith(stranger.request(ViewerDocument), 'unauthenticated');
  });
});

describe('rules', () => {
  test('runRule evaluates a text and traces each condition', async () => {
    const { runRule } = await admin.request(RunRuleDocument, { rule: seniorRule, data: { Person: { age: 70 } } });
    assert.equal(runRule.result, true);
    assert.equal(runRule.error, null);
    assert.deepEqual(runRule.rule, [seniorRule]);
    assert.equal(firstComparison(runRule).property.path, '$.Person.age');
    assert.match(runRule.execution.total, /^[0-9]+$/);
  });

  test('a text that does not parse is a result with an error', async () => {
    const { runRule } = await admin.request(RunRuleDocument, { rule: 'A **Person** gets', data: {} });
    assert.equal(runRule.result, false);
    assert.match(runRule.error ?? '', /^Parse error/);
  });
});

describe('policies', () => {
  test('create, publish with a passing test, run by base id and trace', async () => {
    const { createPolicy } = await admin.request(CreatePolicyDocument, {
      input: {
        name: 'Senior discount',
        rule: seniorRule,
        tests: [{ name: '70 is senior', data: { Person: { age: 70 } }, expect: true }],
      },
    });
    assert.deepEqual(createPolicy.validation.errors, []);
    const draft = createPolicy.policy;
    assert.equal(draft.status, 'DRAFT');
    assert.equal(draft.version, null);

    const { publishPolicy: v1 } = await admin.request(PublishPolicyDocument, { id: draft.id });
    assert.equal(v1.status, 'PUBLISHED');
    assert.equal(v1.version, 1);
    assert.equal(v1.baseId, draft.baseId);
    assert.equal(v1.owner.kind, 'ORGANIZATION');

    const { runPolicy } = await admin.request(RunPolicyDocument, { baseId: draft.baseId, data: { Person: { age: 70 } } });
    assert.equal(runPolicy.result, true);
    assert.deepEqual(runPolicy.rule, [seniorRule]);
    const rule = runPolicy.trace.execution[0];
    assert.equal(rule?.selector, 'Person');
    assert.equal(rule?.result, true);
    const cond = firstComparison(runPolicy);
    assert.equal(cond.operator, 'GreaterThanOrEqual');
    assert.equal(cond.property.path, '$.Person.age');
    assert.equal(cond.property.value, 70);
    assert.deepEqual(cond.value, { type: 'number', value: 65 });
    assert.equal(cond.evaluationDetails?.comparisonResult, true);

    const { runPolicyVersion } = await viewer.request(RunPolicyVersionDocument, { policyId: v1.id, data: { Person: { age: 40 } } });
    assert.equal(runPolicyVersion.result, false);
  });

  test('a viewer key is refused on publish', async () => {
    const { createPolicy } = await admin.request(CreatePolicyDocument, { input: { name: 'Not for viewers', rule: seniorRule } });
    await rejectsWith(viewer.request(PublishPolicyDocument, { id: createPolicy.policy.id }), 'permission_denied');
    const { policy } = await admin.request(PolicyDocument, { id: createPolicy.policy.baseId });
    assert.equal(policy.status, 'DRAFT');
  });

  test('a failing stored test keeps a draft from being published', async () => {
    const { createPolicy } = await admin.request(CreatePolicyDocument, {
      input: { name: 'Wrong test', rule: seniorRule, tests: [{ name: '40 is senior', data: { Person: { age: 40 } }, expect: true }] },
    });
    await rejectsWith(admin.request(PublishPolicyDocument, { id: createPolicy.policy.id }), 'conflict');
  });

  test('drafts, history, lists and deletion', async () => {
    const { createPolicy } = await admin.request(CreatePolicyDocument, { input: { name: 'Lifecycle', rule: seniorRule } });
    const baseId = createPolicy.policy.baseId;
    const { updatePolicyDraft } = await admin.request(UpdatePolicyDraftDocument, {
      id: createPolicy.policy.id,
      input: { description: 'edited' },
    });
    assert.equal(updatePolicyDraft.policy.description, 'edited');
    assert.ok(updatePolicyDraft.policy.revision > createPolicy.policy.revision);

    const { publishPolicy: v1 } = await admin.request(PublishPolicyDocument, { id: baseId });
    const { createPolicyDraftFromVersion: draft } = await admin.request(CreatePolicyDraftFromVersionDocument, { id: v1.id });
    assert.equal(draft.status, 'DRAFT');
    await rejectsWith(admin.request(CreatePolicyDraftFromVersionDocument, { id: v1.id }), 'conflict');

    const { policyVersions } = await admin.request(PolicyVersionsDocument, { id: baseId });
    assert.equal(policyVersions.draft?.id, draft.id);
    assert.deepEqual(
      policyVersions.versions.map((v) => v.version),
      [1],
    );

    const { policies } = await admin.request(PoliciesDocument, { query: 'Lifecycle', first: 10 });
    assert.deepEqual(
      policies.edges.map((e) => e.node.baseId),
      [baseId],
    );
    assert.equal(policies.edges[0]?.node.hasDraft, true);

    const { deletePolicy } = await admin.request(DeletePolicyDocument, { id: baseId });
    assert.equal(deletePolicy, true);
    await rejectsWith(admin.request(PolicyDocument, { id: baseId }), 'deleted');
  });
});
