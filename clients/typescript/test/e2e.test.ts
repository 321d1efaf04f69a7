// End to end: the generated client against a real `verdict serve`. Each
// area of the schema has its own describe block over one shared server,
// and the blocks tell one story in order: the policy published under
// policies is the one the flow runs, the group holds, the audit log names
// and node finds again.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import {
  AddGroupMemberDocument,
  AddMemberDocument,
  AuditEventsDocument,
  ChangeMemberRoleDocument,
  CreateFlowDocument,
  CreateFlowDraftFromVersionDocument,
  CreateGroupDocument,
  CreateKeyDocument,
  CreatePolicyDocument,
  CreatePolicyDraftFromVersionDocument,
  DeleteFlowDocument,
  DeleteGroupDocument,
  DeletePolicyDocument,
  FlowDocument,
  FlowsDocument,
  FlowValidationDocument,
  FlowVersionsDocument,
  GroupDocument,
  GroupFlowsDocument,
  GroupPoliciesDocument,
  GroupsDocument,
  KeysDocument,
  MembersDocument,
  NodeDocument,
  PoliciesDocument,
  PolicyDocument,
  PolicyVersionsDocument,
  PublishFlowDocument,
  PublishPolicyDocument,
  RemoveGroupMemberDocument,
  RemoveMemberDocument,
  RevokeKeyDocument,
  RunFlowBatchDocument,
  RunFlowDocument,
  RunFlowVersionBatchDocument,
  RunFlowVersionDocument,
  RunPolicyDocument,
  RunPolicyVersionDocument,
  RunRuleDocument,
  TestFlowDocument,
  UpdateFlowDraftDocument,
  UpdateGroupDocument,
  UpdatePolicyDraftDocument,
  VerdictClient,
  VerdictError,
  ViewerDocument,
  type AuditEventFieldsFragment,
  type FlowFieldsFragment,
  type GroupFieldsFragment,
  type PolicyFieldsFragment,
  type Role,
  type Scope,
  type TraceFieldsFragment,
} from '../src/client.js';
import { adminKey, startVerdict, type Verdict } from './verdict.js';

const seniorRule = 'A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.';

let verdict: Verdict;
let admin: VerdictClient;
let adminUserId: string;
let viewer: VerdictClient;
let auditor: VerdictClient;

// The story's characters, set by the block that creates them.
let senior: PolicyFieldsFragment;
let seniorFlow: FlowFieldsFragment;
let seniors: GroupFieldsFragment;

before(async () => {
  verdict = await startVerdict();
  admin = new VerdictClient({ url: verdict.url, apiKey: adminKey });
  const { viewer: me } = await admin.request(ViewerDocument);
  adminUserId = me.user!.id;
  viewer = (await member('viewer@localhost', 'VIEWER', 'VIEW')).client;
  auditor = (await member('auditor@localhost', 'AUDITOR', 'VIEW')).client;
});

after(async () => {
  await verdict?.stop();
});

// member adds a user with a role, creates a key of theirs with createKey,
// and returns a client signing with its secret.
async function member(email: string, role: Role, scope: Scope): Promise<{ userId: string; client: VerdictClient }> {
  const addMember = (await admin.request(AddMemberDocument, { input: { email, role } })).addMember!;
  assert.equal(addMember.role, role);
  const createKey = (await admin.request(CreateKeyDocument, {
    input: { name: `${email} key`, scope, userId: addMember.user.id },
  })).createKey!;
  assert.deepEqual(createKey.key.owner, { kind: 'USER', id: addMember.user.id });
  return {
    userId: addMember.user.id,
    client: new VerdictClient({ url: verdict.url, apiKey: createKey.secret }),
  };
}

// rejectsWith checks that a request fails with the API's error code, and
// returns the error for further checks.
async function rejectsWith(request: Promise<unknown>, code: string): Promise<VerdictError> {
  let refused: VerdictError | undefined;
  await assert.rejects(request, (err: unknown) => {
    assert.ok(err instanceof VerdictError, `${err} is not a VerdictError`);
    assert.equal(err.code, code, err.message);
    refused = err;
    return true;
  });
  return refused!;
}

// eventually retries check until it passes, for a few seconds at most: the
// server writes the audit events of runs in the background, a moment after
// the run has answered.
async function eventually<T>(check: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) {
        throw err;
      }
    }
    await sleep(50);
  }
}

type Condition = TraceFieldsFragment['execution'][number]['conditions'][number];
type Comparison = Extract<Condition, { __typename: 'ComparisonCondition' }>;

// firstComparison is the golden rule's first condition, which must be a
// comparison.
function firstComparison(trace: TraceFieldsFragment | null): Comparison {
  const cond = trace?.execution[0]?.conditions[0];
  assert.ok(cond?.__typename === 'ComparisonCondition', `first condition ${JSON.stringify(cond)}`);
  return cond;
}

// seniorDefinition is a flow of one decision: the senior policy, by its base
// id so that the flow follows its latest version, then true or false.
function seniorDefinition(policyBaseId: string) {
  return {
    formatVersion: 1,
    start: 'start',
    nodes: [
      { id: 'start', type: 'start', name: 'Start', policy: { baseId: policyBaseId }, onTrue: 'yes', onFalse: 'no' },
      { id: 'yes', type: 'return', name: 'Return True', returnValue: true },
      { id: 'no', type: 'return', name: 'Return False', returnValue: false },
    ],
  };
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
    const runRule = (await admin.request(RunRuleDocument, { input: { rule: seniorRule, data: { Person: { age: 70 } } } })).runRule!;
    assert.equal(runRule.result, true);
    assert.equal(runRule.error, null);
    assert.deepEqual(runRule.rule, [seniorRule]);
    assert.equal(firstComparison(runRule.trace).property.path, '$.Person.age');
    assert.match(runRule.execution.total, /^[0-9]+$/);
  });

  test('a text that does not parse is a result with an error', async () => {
    const runRule = (await admin.request(RunRuleDocument, { input: { rule: 'A **Person** gets', data: {} } })).runRule!;
    assert.equal(runRule.result, false);
    assert.match(runRule.error ?? '', /^Parse error/);
  });
});

describe('policies', () => {
  test('create, publish with a passing test, run by base id and trace', async () => {
    const createPolicy = (await admin.request(CreatePolicyDocument, {
      input: {
        name: 'Senior discount',
        rule: seniorRule,
        tests: [{ name: '70 is senior', data: { Person: { age: 70 } }, expect: true }],
      },
    })).createPolicy!;
    assert.deepEqual(createPolicy.validation.errors, []);
    const draft = createPolicy.policy;
    assert.equal(draft.status, 'DRAFT');
    assert.equal(draft.version, null);

    const v1 = (await admin.request(PublishPolicyDocument, { input: { id: draft.id } })).publishPolicy!;
    assert.equal(v1.status, 'PUBLISHED');
    assert.equal(v1.version, 1);
    assert.equal(v1.baseId, draft.baseId);
    assert.equal(v1.owner.kind, 'ORGANIZATION');

    const runPolicy = (await admin.request(RunPolicyDocument, { input: { baseId: draft.baseId, data: { Person: { age: 70 } } } })).runPolicy!;
    assert.equal(runPolicy.result, true);
    assert.deepEqual(runPolicy.rule, [seniorRule]);
    const rule = runPolicy.trace.execution[0];
    assert.equal(rule?.selector, 'Person');
    assert.equal(rule?.result, true);
    const cond = firstComparison(runPolicy.trace);
    assert.equal(cond.operator, 'GREATER_THAN_OR_EQUAL');
    assert.equal(cond.property.path, '$.Person.age');
    assert.equal(cond.property.value, 70);
    assert.deepEqual(cond.value, { type: 'NUMBER', value: 65 });
    assert.equal(cond.evaluationDetails?.comparisonResult, true);

    const runPolicyVersion = (await viewer.request(RunPolicyVersionDocument, { input: { policyId: v1.id, data: { Person: { age: 40 } } } })).runPolicyVersion!;
    assert.equal(runPolicyVersion.result, false);
    senior = v1;
  });

  test('a viewer key is refused on publish', async () => {
    const createPolicy = (await admin.request(CreatePolicyDocument, { input: { name: 'Not for viewers', rule: seniorRule } })).createPolicy!;
    await rejectsWith(viewer.request(PublishPolicyDocument, { input: { id: createPolicy.policy.id } }), 'permission_denied');
    const { policy } = await admin.request(PolicyDocument, { id: createPolicy.policy.baseId });
    assert.ok(policy);
    assert.equal(policy.status, 'DRAFT');
  });

  test('a failing stored test keeps a draft from being published', async () => {
    const createPolicy = (await admin.request(CreatePolicyDocument, {
      input: { name: 'Wrong test', rule: seniorRule, tests: [{ name: '40 is senior', data: { Person: { age: 40 } }, expect: true }] },
    })).createPolicy!;
    await rejectsWith(admin.request(PublishPolicyDocument, { input: { id: createPolicy.policy.id } }), 'conflict');
  });

  test('drafts, history, lists and deletion', async () => {
    const createPolicy = (await admin.request(CreatePolicyDocument, { input: { name: 'Lifecycle', rule: seniorRule } })).createPolicy!;
    const baseId = createPolicy.policy.baseId;
    const updatePolicyDraft = (await admin.request(UpdatePolicyDraftDocument, {
      input: { id: createPolicy.policy.id, description: 'edited' },
    })).updatePolicyDraft!;
    assert.equal(updatePolicyDraft.policy.description, 'edited');
    assert.ok(updatePolicyDraft.policy.revision > createPolicy.policy.revision);

    const v1 = (await admin.request(PublishPolicyDocument, { input: { id: baseId } })).publishPolicy!;
    const draft = (await admin.request(CreatePolicyDraftFromVersionDocument, { input: { id: v1.id } })).createPolicyDraftFromVersion!;
    assert.equal(draft.status, 'DRAFT');
    await rejectsWith(admin.request(CreatePolicyDraftFromVersionDocument, { input: { id: v1.id } }), 'conflict');

    const { policyVersions } = await admin.request(PolicyVersionsDocument, { id: baseId });
    assert.ok(policyVersions);
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

    const { deletePolicy } = await admin.request(DeletePolicyDocument, { input: { id: baseId } });
    assert.equal(deletePolicy, true);
    await rejectsWith(admin.request(PolicyDocument, { id: baseId }), 'deleted');
  });
});

describe('flows', () => {
  test('create, publish with passing tests, run by base id and by version', async () => {
    const createFlow = (await admin.request(CreateFlowDocument, {
      input: {
        name: 'Senior check',
        definition: seniorDefinition(senior.baseId),
        tests: [
          { name: '70 is senior', data: { Person: { age: 70 } }, expect: true },
          { name: '40 is not', data: { Person: { age: 40 } }, expect: false },
        ],
      },
    })).createFlow!;
    assert.deepEqual(createFlow.validation, { errors: [], warnings: [] });
    assert.equal(createFlow.flow.status, 'DRAFT');
    assert.equal(createFlow.flow.owner.kind, 'USER');

    const v1 = (await admin.request(PublishFlowDocument, { input: { id: createFlow.flow.id } })).publishFlow!;
    assert.equal(v1.status, 'PUBLISHED');
    assert.equal(v1.version, 1);
    assert.equal(v1.baseId, createFlow.flow.baseId);
    assert.equal(v1.owner.kind, 'ORGANIZATION');
    seniorFlow = v1;

    const runFlow = (await admin.request(RunFlowDocument, { input: { baseId: v1.baseId, data: { Person: { age: 70 } } } })).runFlow!;
    assert.equal(runFlow.result, true);
    assert.equal(runFlow.finalOutcome, true);
    assert.equal(runFlow.outcome, null);
    assert.equal(runFlow.nodeId, 'start');
    assert.equal(runFlow.nodeName, 'Start');
    // Only the start node ran a policy: return nodes give no response and
    // the path lists what ran after the start node.
    assert.deepEqual(runFlow.executionPath, []);
    assert.deepEqual(runFlow.errors, []);
    assert.equal(runFlow.nodeResponses.length, 1);
    const start = runFlow.nodeResponses[0]!;
    assert.equal(start.nodeId, 'start');
    assert.equal(start.nodeType, 'START');
    assert.equal(start.response.result, true);
    assert.equal(start.response.error, null);
    assert.deepEqual(start.response.rule, [seniorRule]);
    assert.deepEqual(start.response.data, { Person: { age: 70 } });
    assert.equal(firstComparison(start.response.trace).property.value, 70);
    assert.match(start.execution.total, /^[0-9]+$/);

    const runFlowVersion = (await viewer.request(RunFlowVersionDocument, { input: { flowId: v1.id, data: { Person: { age: 40 } } } })).runFlowVersion!;
    assert.equal(runFlowVersion.result, false);
    assert.deepEqual(runFlowVersion.executionPath, []);
    assert.equal(runFlowVersion.nodeResponses[0]?.response.result, false);

    const items = [{ Person: { age: 70 } }, { Person: { age: 40 } }];
    const batch = (await viewer.request(RunFlowBatchDocument, { input: { baseId: v1.baseId, items } })).runFlowBatch!;
    assert.deepEqual(
      batch.results.map((r) => r.result),
      [true, false],
    );
    assert.match(batch.execution.total, /^[0-9]+$/);
    const versionBatch = (await viewer.request(RunFlowVersionBatchDocument, { input: { flowId: v1.id, items } })).runFlowVersionBatch!;
    const [, forty] = versionBatch.results;
    assert.equal(forty?.result, false);
    assert.deepEqual(forty?.executionPath, runFlowVersion.executionPath);
    assert.deepEqual(forty?.nodeResponses[0]?.response.trace, runFlowVersion.nodeResponses[0]?.response.trace);
  });

  test('testFlow runs a definition it does not store', async () => {
    const definition = {
      formatVersion: 1,
      nodes: [
        { id: 'start', type: 'start', policy: { baseId: senior.baseId }, onTrue: 'review', onFalse: 'no' },
        { id: 'review', type: 'custom', name: 'Manual review', outcome: 'manual review' },
        { id: 'no', type: 'return', returnValue: false },
      ],
    };
    const testFlow = (await admin.request(TestFlowDocument, { input: { definition, data: { Person: { age: 70 } } } })).testFlow!;
    assert.equal(testFlow.result, true);
    assert.equal(testFlow.outcome, 'manual review');
    assert.deepEqual(testFlow.executionPath, ['review']);
    assert.deepEqual(
      testFlow.nodeResponses.map((r) => r.nodeType),
      ['START', 'CUSTOM'],
    );
    assert.deepEqual(testFlow.nodeResponses[1]?.response.rule, ['Custom response: manual review']);
  });

  test('testFlow refuses an invalid definition, listing every problem', async () => {
    const definition = {
      formatVersion: 1,
      nodes: [
        { id: 's', type: 'start', policy: { baseId: senior.baseId }, onTrue: 'nowhere', onFalse: 'w' },
        { id: 'w', type: 'webhook' },
      ],
    };
    const err = await rejectsWith(admin.request(TestFlowDocument, { input: { definition, data: { Person: { age: 70 } } } }), 'invalid_argument');
    assert.ok(err.details.includes('Referenced node "nowhere" not found'), `details ${JSON.stringify(err.details)}`);
    assert.ok(err.details.includes('unknown node type: webhook (node "w")'), `details ${JSON.stringify(err.details)}`);
  });

  test('drafts, history, lists and deletion', async () => {
    const createFlow = (await admin.request(CreateFlowDocument, {
      input: { name: 'Flow lifecycle', definition: seniorDefinition(senior.baseId) },
    })).createFlow!;
    const baseId = createFlow.flow.baseId;
    const { flowValidation } = await viewer.request(FlowValidationDocument, { id: createFlow.flow.id });
    assert.deepEqual(flowValidation, { errors: [], warnings: [] });
    const updateFlowDraft = (await admin.request(UpdateFlowDraftDocument, { input: { id: baseId, description: 'edited' } })).updateFlowDraft!;
    assert.equal(updateFlowDraft.flow.description, 'edited');
    assert.ok(updateFlowDraft.flow.revision > createFlow.flow.revision);
    await rejectsWith(viewer.request(PublishFlowDocument, { input: { id: baseId } }), 'permission_denied');

    const v1 = (await admin.request(PublishFlowDocument, { input: { id: baseId } })).publishFlow!;
    const draft = (await admin.request(CreateFlowDraftFromVersionDocument, { input: { id: v1.id } })).createFlowDraftFromVersion!;
    assert.equal(draft.status, 'DRAFT');
    await rejectsWith(admin.request(CreateFlowDraftFromVersionDocument, { input: { id: v1.id } }), 'conflict');
    const replaced = (await admin.request(CreateFlowDraftFromVersionDocument, {
      input: { id: v1.id, replace: true },
    })).createFlowDraftFromVersion!;

    const { flowVersions } = await admin.request(FlowVersionsDocument, { id: baseId });
    assert.ok(flowVersions);
    assert.equal(flowVersions.draft?.id, replaced.id);
    assert.deepEqual(
      flowVersions.versions.map((v) => v.version),
      [1],
    );

    const { flows } = await admin.request(FlowsDocument, { query: 'Flow lifecycle', first: 10 });
    assert.deepEqual(
      flows.edges.map((e) => e.node.baseId),
      [baseId],
    );
    assert.equal(flows.edges[0]?.node.latestVersionId, v1.id);
    assert.equal(flows.edges[0]?.node.hasDraft, true);

    const { deleteFlow } = await admin.request(DeleteFlowDocument, { input: { id: baseId } });
    assert.equal(deleteFlow, true);
    await rejectsWith(admin.request(FlowDocument, { id: baseId }), 'deleted');
  });
});

describe('groups', () => {
  test('a group holds the policy and the flow', async () => {
    const createGroup = (await admin.request(CreateGroupDocument, {
      input: { name: 'Seniors', description: 'Discounts from 65' },
    })).createGroup!;
    seniors = createGroup;

    const policyMember = (await admin.request(AddGroupMemberDocument, {
      input: { groupId: seniors.id, kind: 'POLICY', baseId: senior.baseId },
    })).addGroupMember!;
    assert.equal(policyMember.groupId, seniors.id);
    assert.equal(policyMember.kind, 'POLICY');
    assert.equal(policyMember.baseId, senior.baseId);
    await admin.request(AddGroupMemberDocument, { input: { groupId: seniors.id, kind: 'FLOW', baseId: seniorFlow.baseId } });
    await rejectsWith(
      admin.request(AddGroupMemberDocument, { input: { groupId: seniors.id, kind: 'POLICY', baseId: senior.baseId } }),
      'conflict',
    );

    const { group: withPolicies } = await viewer.request(GroupPoliciesDocument, { id: seniors.id, withTotalCount: true });
    assert.ok(withPolicies);
    assert.deepEqual(
      withPolicies.policies.edges.map((e) => e.node.baseId),
      [senior.baseId],
    );
    assert.equal(withPolicies.policies.pageInfo.hasNextPage, false);
    assert.equal(withPolicies.policies.totalCount, 1);
    const { group: withFlows } = await viewer.request(GroupFlowsDocument, { id: seniors.id });
    assert.ok(withFlows);
    assert.deepEqual(
      withFlows.flows.edges.map((e) => e.node.baseId),
      [seniorFlow.baseId],
    );

    const { policies } = await admin.request(PoliciesDocument, { groupId: seniors.id });
    assert.deepEqual(
      policies.edges.map((e) => e.node.baseId),
      [senior.baseId],
    );
    const { flows } = await admin.request(FlowsDocument, { groupId: seniors.id });
    assert.deepEqual(
      flows.edges.map((e) => e.node.baseId),
      [seniorFlow.baseId],
    );
  });

  test('rename, list, take out and delete', async () => {
    const updateGroup = (await admin.request(UpdateGroupDocument, { input: { id: seniors.id, description: 'From 65' } })).updateGroup!;
    assert.equal(updateGroup.description, 'From 65');
    const { group } = await admin.request(GroupDocument, { id: seniors.id });
    assert.ok(group);
    assert.equal(group.description, 'From 65');
    const { groups } = await admin.request(GroupsDocument, { query: 'Seniors' });
    assert.deepEqual(
      groups.edges.map((e) => e.node.id),
      [seniors.id],
    );

    const scratch = (await admin.request(CreateGroupDocument, { input: { name: 'Scratch' } })).createGroup!;
    const addGroupMember = (await admin.request(AddGroupMemberDocument, { input: {
      groupId: scratch.id,
      kind: 'FLOW',
      baseId: seniorFlow.baseId,
    } })).addGroupMember!;
    const { removeGroupMember } = await admin.request(RemoveGroupMemberDocument, { input: { groupId: scratch.id, memberId: addGroupMember.id } });
    assert.equal(removeGroupMember, true);
    const { group: emptied } = await admin.request(GroupFlowsDocument, { id: scratch.id });
    assert.ok(emptied);
    assert.deepEqual(emptied.flows.edges, []);
    const { deleteGroup } = await admin.request(DeleteGroupDocument, { input: { id: scratch.id } });
    assert.equal(deleteGroup, true);
    await rejectsWith(admin.request(GroupDocument, { id: scratch.id }), 'not_found');
  });

  test('a viewer reads groups but does not manage them', async () => {
    const { group } = await viewer.request(GroupDocument, { id: seniors.id });
    assert.ok(group);
    assert.equal(group.name, 'Seniors');
    await rejectsWith(viewer.request(CreateGroupDocument, { input: { name: 'Not for viewers' } }), 'permission_denied');
  });
});

describe('audit log', () => {
  test('the admin reads who created, published, assigned and ran the policy and the flow', async () => {
    for (const [kind, record] of [
      ['POLICY', senior],
      ['FLOW', seniorFlow],
    ] as const) {
      const events = await eventually(async () => {
        const { auditEvents } = await admin.request(AuditEventsDocument, { filter: { baseId: record.baseId } });
        const nodes = auditEvents.edges.map((e) => e.node);
        assert.ok(
          nodes.some((e) => e.action === 'EXECUTED'),
          `no run of the ${kind} logged yet`,
        );
        return nodes;
      });
      const byAdmin = (action: AuditEventFieldsFragment['action'], about: (e: AuditEventFieldsFragment) => boolean = () => true) => {
        const event = events.find((e) => e.action === action && e.actor.id === adminUserId && about(e));
        assert.ok(event, `no such ${action} ${kind} event by the admin in ${JSON.stringify(events)}`);
        assert.equal(event.kind, kind);
        assert.deepEqual(event.actor, { kind: 'USER', id: adminUserId });
      };
      byAdmin('CREATED');
      byAdmin('PUBLISHED', (e) => e.recordId === record.id);
      byAdmin('ASSIGNED', (e) => e.groupId === seniors.id);
      byAdmin('EXECUTED');
    }

    const { auditEvents } = await admin.request(AuditEventsDocument, { filter: { action: 'CREATED', kind: 'GROUP' } });
    assert.ok(auditEvents.edges.some((e) => e.node.groupId === seniors.id));
  });

  test('an auditor reads the log and runs nothing; a viewer does not read it', async () => {
    const { auditEvents } = await auditor.request(AuditEventsDocument, { first: 1, withTotalCount: true });
    assert.equal(auditEvents.edges.length, 1);
    assert.equal(auditEvents.pageInfo.hasNextPage, true);
    assert.equal(auditEvents.pageInfo.hasPreviousPage, false);
    assert.equal(auditEvents.pageInfo.startCursor, auditEvents.edges[0]?.cursor);
    assert.ok(auditEvents.totalCount! > 1, `totalCount ${auditEvents.totalCount}`);
    const { auditEvents: next } = await auditor.request(AuditEventsDocument, { first: 1, after: auditEvents.pageInfo.endCursor });
    assert.equal(next.pageInfo.hasPreviousPage, true);
    assert.notEqual(next.edges[0]?.node.id, auditEvents.edges[0]?.node.id);
    await rejectsWith(auditor.request(RunPolicyDocument, { input: { baseId: senior.baseId, data: { Person: { age: 70 } } } }), 'permission_denied');
    await rejectsWith(viewer.request(AuditEventsDocument), 'permission_denied');
  });
});

describe('node', () => {
  test('finds a record, a group and the organization by id alone', async () => {
    const { node: policy } = await viewer.request(NodeDocument, { id: senior.id });
    assert.ok(policy?.__typename === 'Policy', `node ${JSON.stringify(policy)}`);
    assert.equal(policy.baseId, senior.baseId);

    const { node: flow } = await admin.request(NodeDocument, { id: seniorFlow.id });
    assert.ok(flow?.__typename === 'Flow', `node ${JSON.stringify(flow)}`);
    assert.equal(flow.flowTests.length, 2);

    // A base id finds the base as the lists show it, with the same id, so
    // that a cache keeps one entry per policy or flow.
    const { node: summary } = await viewer.request(NodeDocument, { id: senior.baseId });
    assert.ok(summary?.__typename === 'PolicySummary', `node ${JSON.stringify(summary)}`);
    assert.equal(summary.id, senior.baseId);
    assert.equal(summary.latestVersionId, senior.id);
    const { node: flowSummary } = await viewer.request(NodeDocument, { id: seniorFlow.baseId });
    assert.ok(flowSummary?.__typename === 'FlowSummary', `node ${JSON.stringify(flowSummary)}`);
    assert.equal(flowSummary.id, seniorFlow.baseId);

    const { node: group } = await admin.request(NodeDocument, { id: seniors.id });
    assert.ok(group?.__typename === 'Group', `node ${JSON.stringify(group)}`);
    assert.equal(group.name, 'Seniors');

    const { viewer: me } = await admin.request(ViewerDocument);
    const { node: org } = await admin.request(NodeDocument, { id: me.organization.id });
    assert.ok(org?.__typename === 'Organization', `node ${JSON.stringify(org)}`);
    assert.equal(org.name, 'Default');
  });

  test('an unknown id is null, and so is a lookup that finds nothing', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    assert.equal((await admin.request(NodeDocument, { id: unknown })).node, null);
    // policy(id) is nullable: not found is null in its place plus a typed
    // error, which the client throws.
    const err = await rejectsWith(admin.request(PolicyDocument, { id: unknown }), 'not_found');
    assert.deepEqual(err.errors[0]?.path, ['policy']);
  });
});

describe('administration', () => {
  test('members and keys list who may act', async () => {
    const { members } = await admin.request(MembersDocument);
    assert.equal(members.totalCount, undefined);
    const roles = new Map(members.edges.map((e) => [e.node.user.email, e.node.role]));
    assert.equal(roles.get('admin@localhost'), 'ADMIN');
    assert.equal(roles.get('viewer@localhost'), 'VIEWER');
    assert.equal(roles.get('auditor@localhost'), 'AUDITOR');
    const viewerMembership = members.edges.find((e) => e.node.user.email === 'viewer@localhost')!.node;
    const { node } = await admin.request(NodeDocument, { id: viewerMembership.id });
    assert.ok(node?.__typename === 'Member', `node ${JSON.stringify(node)}`);
    assert.equal(node.role, 'VIEWER');

    const { keys } = await admin.request(KeysDocument, { query: 'viewer@localhost' });
    assert.equal(keys.edges.length, 1);
    assert.equal(keys.edges[0]?.node.scope, 'VIEW');
    assert.equal(keys.edges[0]?.node.revokedAt, null);
  });

  test('an organization key acts with its scope until it is revoked', async () => {
    const createKey = (await admin.request(CreateKeyDocument, { input: { name: 'deploy bot', scope: 'EDIT' } })).createKey!;
    assert.equal(createKey.key.owner.kind, 'ORGANIZATION');
    const bot = new VerdictClient({ url: verdict.url, apiKey: createKey.secret });
    const { viewer: me } = await bot.request(ViewerDocument);
    assert.equal(me.role, 'EDITOR');
    assert.equal(me.user, null);
    assert.equal(me.key.id, createKey.key.id);

    const { revokeKey } = await admin.request(RevokeKeyDocument, { input: { id: createKey.key.id } });
    assert.equal(revokeKey, true);
    await rejectsWith(bot.request(ViewerDocument), 'unauthenticated');
    const { keys } = await admin.request(KeysDocument, { query: 'deploy bot' });
    assert.notEqual(keys.edges[0]?.node.revokedAt, null);
  });

  test("a member's role changes, and their keys stop working when they leave", async () => {
    const temp = await member('temp@localhost', 'EDITOR', 'ADMIN');
    assert.equal((await temp.client.request(ViewerDocument)).viewer.role, 'EDITOR');
    const changeMemberRole = (await admin.request(ChangeMemberRoleDocument, { input: { userId: temp.userId, role: 'VIEWER' } })).changeMemberRole!;
    assert.equal(changeMemberRole.role, 'VIEWER');
    assert.equal((await temp.client.request(ViewerDocument)).viewer.role, 'VIEWER');

    const { removeMember } = await admin.request(RemoveMemberDocument, { input: { userId: temp.userId } });
    assert.equal(removeMember, true);
    await rejectsWith(temp.client.request(ViewerDocument), 'unauthenticated');
  });

  test('only admins administer', async () => {
    await rejectsWith(viewer.request(MembersDocument), 'permission_denied');
    await rejectsWith(viewer.request(CreateKeyDocument, { input: { name: 'mine', scope: 'VIEW' } }), 'permission_denied');
  });
});
