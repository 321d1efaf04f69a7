/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** Whether a user, a key or the operator caused an event. */
export type ActorKind =
  /** An organization's API key, which no user owns. */
  | 'KEY'
  /**
   * The operator, who manages the database directly (verdict admin, and the
   * first start of verdict serve) and is neither a user nor a key: only
   * members' and keys' audit events, never a run, have this actor.
   */
  | 'OPERATOR'
  /** A user, with one of their keys. */
  | 'USER';

/** What addGroupMember takes. */
export type AddGroupMemberInput = {
  /** The base id of the policy or flow. */
  baseId: string;
  /** The group's id. */
  groupId: string;
  /** Whether baseId names a policy or a flow. */
  kind: GroupMemberKind;
};

/** A user to add to the organization. */
export type AddMemberInput = {
  /** The user's email address; compared ignoring case. */
  email: string;
  /**
   * The name the organization knows the member by, shown in its member list;
   * also the display name of a user created for the email. A user who exists
   * keeps their own name, which the organization never sees.
   */
  name?: string | null | undefined;
  /** The role to give. */
  role: Role;
};

/** What an audit event records. */
export type AuditAction =
  /** A policy or flow was put into or taken out of a group. */
  | 'ASSIGNED'
  /** Something was created. */
  | 'CREATED'
  /** Something was deleted. */
  | 'DELETED'
  /** Something was changed: a draft, a group, a member's role, a key. */
  | 'EDITED'
  /** A policy or flow was run. */
  | 'EXECUTED'
  /** A draft became a version. */
  | 'PUBLISHED';

/**
 * Narrows the audit log. Absent fields do not filter; given ones must all
 * match.
 */
export type AuditFilter = {
  /** Only events of this action. */
  action?: AuditAction | null | undefined;
  /**
   * Only events caused by this user or API key, or by the operator with the
   * nil UUID.
   */
  actor?: string | null | undefined;
  /** Only events about the policy or flow with this base id. */
  baseId?: string | null | undefined;
  /** Only events about this kind of object. */
  kind?: AuditKind | null | undefined;
  /** Only events at or after this instant. */
  since?: string | null | undefined;
  /** Only events before this instant; it must be later than since. */
  until?: string | null | undefined;
};

/** What an audit event is about. */
export type AuditKind =
  /** A flow. */
  | 'FLOW'
  /** A group. */
  | 'GROUP'
  /** An API key. */
  | 'KEY'
  /** A member of the organization. */
  | 'MEMBER'
  /** A policy. */
  | 'POLICY';

/** What changeMemberRole takes. */
export type ChangeMemberRoleInput = {
  /** The new role. */
  role: Role;
  /** The member's user id. */
  userId: string;
};

/** How a comparison condition compares, with the phrases that write it. */
export type ComparisonOperator =
  /** contains: a text contains a word or phrase, or a list an item. */
  | 'CONTAINS'
  /** is earlier than: an earlier date. */
  | 'EARLIER_THAN'
  /** is equal to (is the same as). */
  | 'EQUAL_TO'
  /** is exactly equal to: as EQUAL_TO, but texts compare case-sensitively. */
  | 'EXACTLY_EQUAL_TO'
  /** is greater than. */
  | 'GREATER_THAN'
  /** is greater than or equal to (is at least). */
  | 'GREATER_THAN_OR_EQUAL'
  /** is in: one of a list. */
  | 'IN'
  /** is empty. */
  | 'IS_EMPTY'
  /** is not empty. */
  | 'IS_NOT_EMPTY'
  /** is later than: a later date. */
  | 'LATER_THAN'
  /** is less than. */
  | 'LESS_THAN'
  /** is less than or equal to (is no more than). */
  | 'LESS_THAN_OR_EQUAL'
  /** is not equal to (is not the same as). */
  | 'NOT_EQUAL_TO'
  /** is not in: none of a list. */
  | 'NOT_IN'
  /** is older than: a date more than a duration before today. */
  | 'OLDER_THAN'
  /** is within: a date no further than a duration from today, before or after. */
  | 'WITHIN'
  /** is younger than: a date less than a duration before today. */
  | 'YOUNGER_THAN';

/** What createFlowDraftFromVersion takes. */
export type CreateFlowDraftFromVersionInput = {
  /**
   * The published record's id, or a base id, which means its latest
   * version.
   */
  id: string;
  /** Whether to overwrite the flow's existing draft. */
  replace?: boolean | null | undefined;
};

/** The content of a new flow. */
export type CreateFlowInput = {
  /** The definition, in any form testFlow accepts. */
  definition: unknown;
  /** What the flow is for. */
  description?: string | null | undefined;
  /** The flow's name; not blank. */
  name: string;
  /** Tests to store with the draft. */
  tests?: Array<FlowTestInput> | null | undefined;
};

/** The content of a new group. */
export type CreateGroupInput = {
  /** What the group is for. */
  description?: string | null | undefined;
  /** The group's name; not blank. */
  name: string;
};

/** A key to create. */
export type CreateKeyInput = {
  /** When the key stops working, in the future; never when absent. */
  expiresAt?: string | null | undefined;
  /** The key's name; not blank. */
  name: string;
  /** The most the key allows. */
  scope: Scope;
  /** The member who owns the key; the organization owns it when absent. */
  userId?: string | null | undefined;
};

/** What createPolicyDraftFromVersion takes. */
export type CreatePolicyDraftFromVersionInput = {
  /**
   * The published record's id, or a base id, which means its latest
   * version.
   */
  id: string;
  /** Whether to overwrite the policy's existing draft. */
  replace?: boolean | null | undefined;
};

/** The content of a new policy. */
export type CreatePolicyInput = {
  /** What the policy is for. */
  description?: string | null | undefined;
  /** The policy's name; not blank. */
  name: string;
  /** The rule text, in the rule language. */
  rule: string;
  /** A JSON Schema (an object) of the data the rule expects. */
  schema?: unknown;
  /** Tests to store with the draft. */
  tests?: Array<PolicyTestInput> | null | undefined;
};

/** Narrows the decision records. Absent fields do not filter. */
export type DecisionFilter = {
  /** Only records of the policy or flow with this base id. */
  baseId?: string | null | undefined;
  /** Only records with this result. */
  result?: boolean | null | undefined;
  /** Only records at or after this instant. */
  since?: string | null | undefined;
  /** Only records before this instant; it must be later than since. */
  until?: string | null | undefined;
};

/** What deleteFlow takes. */
export type DeleteFlowInput = {
  /** A record id or a base id of the flow. */
  id: string;
};

/** What deleteGroup takes. */
export type DeleteGroupInput = {
  /** The group's id. */
  id: string;
};

/** What deletePolicy takes. */
export type DeletePolicyInput = {
  /** A record id or a base id of the policy. */
  id: string;
};

/** How serious a diagnostic is. */
export type DiagnosticSeverity =
  /**
   * The text does not run, or cannot mean what it says (a comparison that
   * misses its last word, rules that refer to each other in a circle).
   */
  | 'ERROR'
  /** Worth knowing; nothing is wrong. */
  | 'INFO'
  /** The text runs, but most likely not as meant. */
  | 'WARNING';

/** What happened to a line of a hunk. */
export type DiffLineKind =
  /** Only in the second text. */
  | 'ADDED'
  /** Unchanged: shown for context. */
  | 'CONTEXT'
  /** Only in the first text. */
  | 'REMOVED';

/** A stored test to save with a flow draft. */
export type FlowTestInput = {
  /** The input to run the record on: a JSON object. */
  data: unknown;
  /**
   * What the run must give: true or false (the flow's result), or a string
   * (the outcome of the custom node the run ends on). Anything else is an
   * invalid_argument error.
   */
  expect: unknown;
  /** The test's name, unique within the record. */
  name: string;
};

/** What a group holds. */
export type GroupMemberKind =
  /** A flow. */
  | 'FLOW'
  /** A policy. */
  | 'POLICY';

/**
 * What happened at a place of a JSON document. Objects are compared member
 * by member, anything else as a whole.
 */
export type JsonChangeKind =
  /** A member only the second document has. */
  | 'ADDED'
  /** A value that differs. */
  | 'CHANGED'
  /** A member only the first document has. */
  | 'REMOVED';

/** The type of a node that gives a node response. */
export type NodeType =
  /** A node that ends the flow on an outcome. */
  | 'CUSTOM'
  /** A node that runs a policy. */
  | 'POLICY'
  /** The start node, which runs a policy. */
  | 'START';

/** Whether a key or a resource belongs to a user or to an organization. */
export type OwnerKind =
  /** Owned by the organization. */
  | 'ORGANIZATION'
  /** Owned by a user. */
  | 'USER';

/** A test to run: the record on data must give expect. */
export type PolicyTestCaseInput = {
  /** The data to run the record on: a JSON object. */
  data: unknown;
  /** The result the golden rule must give: true or false. */
  expect: unknown;
  /** The test's name. */
  name: string;
};

/** A stored test to save with a draft. */
export type PolicyTestInput = {
  /** The data to run the record on: a JSON object. */
  data: unknown;
  /** The result the golden rule must give. */
  expect: boolean;
  /** The test's name, unique within the record. */
  name: string;
};

/**
 * A flow draft to publish, and the changes to make to it first. An absent
 * field stays as it is.
 */
export type PublishFlowInput = {
  /**
   * The new definition, in any form testFlow accepts. Null leaves it as it
   * is.
   */
  definition?: unknown;
  /**
   * The new description. Null leaves it as it is; the empty string clears
   * it.
   */
  description?: string | null | undefined;
  /**
   * The draft's record id, or the id of a base whose current record is its
   * draft.
   */
  id: string;
  /** The new name; not blank. Null leaves it as it is. */
  name?: string | null | undefined;
  /**
   * The draft's revision as you last read it: when the draft has changed
   * since, the request is refused with conflict and nothing changes, so that
   * two people editing one draft do not overwrite each other unseen. Null
   * skips the check.
   */
  revision?: number | null | undefined;
  /**
   * The new tests, replacing all the stored ones. Null leaves them as they
   * are; an empty list removes them.
   */
  tests?: Array<FlowTestInput> | null | undefined;
};

/**
 * A policy draft to publish, and the changes to make to it first. An absent
 * field stays as it is.
 */
export type PublishPolicyInput = {
  /**
   * The new description. Null leaves it as it is; the empty string clears
   * it.
   */
  description?: string | null | undefined;
  /**
   * The draft's record id, or the id of a base whose current record is its
   * draft.
   */
  id: string;
  /** The new name; not blank. Null leaves it as it is. */
  name?: string | null | undefined;
  /**
   * The draft's revision as you last read it: when the draft has changed
   * since, the request is refused with conflict and nothing changes, so that
   * two people editing one draft do not overwrite each other unseen. Null
   * skips the check.
   */
  revision?: number | null | undefined;
  /** The new rule text. Null leaves it as it is. */
  rule?: string | null | undefined;
  /** The new JSON Schema (an object). Null removes the schema. */
  schema?: unknown;
  /**
   * The new tests, replacing all the stored ones. Null leaves them as they
   * are; an empty list removes them.
   */
  tests?: Array<PolicyTestInput> | null | undefined;
};

/** Whether a record is a draft or a published version. */
export type RecordStatus =
  /** The one editable record of a policy. */
  | 'DRAFT'
  /** A numbered, immutable version. */
  | 'PUBLISHED';

/** What removeGroupMember takes. */
export type RemoveGroupMemberInput = {
  /** The group's id. */
  groupId: string;
  /** The membership's id, as addGroupMember gave it. */
  memberId: string;
};

/** What removeMember takes. */
export type RemoveMemberInput = {
  /** The member's user id. */
  userId: string;
};

/** Which recorded decisions of the flow's base to replay. */
export type ReplayFlowInput = {
  /** A flow record id, or a base id for its latest version (else its draft). */
  flowId: string;
  /** At most this many, the newest: 1 to 10000; 1000 when absent. */
  limit?: number | null | undefined;
  /** Only decisions at or after this instant. */
  since?: string | null | undefined;
  /** Only decisions before this instant. */
  until?: string | null | undefined;
};

/** Which recorded decisions of the policy's base to replay. */
export type ReplayPolicyInput = {
  /** At most this many, the newest: 1 to 10000; 1000 when absent. */
  limit?: number | null | undefined;
  /** A policy record id, or a base id for its latest version (else its draft). */
  policyId: string;
  /** Only decisions at or after this instant. */
  since?: string | null | undefined;
  /** Only decisions before this instant. */
  until?: string | null | undefined;
};

/** What revokeKey takes. */
export type RevokeKeyInput = {
  /** The key's id. */
  id: string;
};

/** What a user may do in an organization. */
export type Role =
  /**
   * A publisher who also deletes resources and manages members, roles and
   * keys.
   */
  | 'ADMIN'
  /**
   * Reads the organization's audit log, and nothing else: cannot create,
   * edit, publish, delete or run.
   */
  | 'AUDITOR'
  /**
   * A viewer who also creates and edits drafts, runs ad hoc tests and manages
   * groups.
   */
  | 'EDITOR'
  /** An editor who also publishes versions. */
  | 'PUBLISHER'
  /** Inspects and runs the resources they can see. */
  | 'VIEWER';

/** What rollbackFlow takes. */
export type RollbackFlowInput = {
  /** A version's record id, or the flow's base id for its latest version. */
  id: string;
};

/** What rollbackPolicy takes. */
export type RollbackPolicyInput = {
  /** A version's record id, or the policy's base id for its latest version. */
  id: string;
};

/** What runFlowBatch takes. */
export type RunFlowBatchInput = {
  /** The flow's (base) id. */
  baseId: string;
  /** The input of each run: JSON objects. */
  items: Array<unknown>;
};

/** What runFlow takes. */
export type RunFlowInput = {
  /** The flow's base id. */
  baseId: string;
  /**
   * The input of the flow: a JSON object. Anything else is an
   * invalid_argument error.
   */
  data: unknown;
};

/** What runFlowVersionBatch takes. */
export type RunFlowVersionBatchInput = {
  /** The record's id. */
  flowId: string;
  /** The input of each run: JSON objects. */
  items: Array<unknown>;
};

/** What runFlowVersion takes. */
export type RunFlowVersionInput = {
  /**
   * The input of the flow: a JSON object. Anything else is an
   * invalid_argument error.
   */
  data: unknown;
  /** The record's id. */
  flowId: string;
};

/** What runPolicyBatch takes. */
export type RunPolicyBatchInput = {
  /** The policy's (base) id. */
  baseId: string;
  /** The data of each run: JSON objects. */
  items: Array<unknown>;
};

/** What runPolicy takes. */
export type RunPolicyInput = {
  /** The policy's base id. */
  baseId: string;
  /**
   * The data to evaluate against: a JSON object. Anything else is an
   * invalid_argument error.
   */
  data: unknown;
};

/** What runPolicyVersionBatch takes. */
export type RunPolicyVersionBatchInput = {
  /** The data of each run: JSON objects. */
  items: Array<unknown>;
  /** The record's id. */
  policyId: string;
};

/** What runPolicyVersion takes. */
export type RunPolicyVersionInput = {
  /**
   * The data to evaluate against: a JSON object. Anything else is an
   * invalid_argument error.
   */
  data: unknown;
  /** The record's id. */
  policyId: string;
};

/** What runRule takes. */
export type RunRuleInput = {
  /**
   * The data to evaluate against: a JSON object. Anything else is an
   * invalid_argument error.
   */
  data: unknown;
  /** The rule text, in the rule language. */
  rule: string;
};

/**
 * The ceiling an API key puts on what its owner may do: a request may do what
 * both the key's scope and the owner's role allow. VIEW < EDIT < PUBLISH <
 * ADMIN.
 */
export type Scope =
  /** Everything the owner's role allows. */
  | 'ADMIN'
  /** Also create and edit drafts. */
  | 'EDIT'
  /** Also publish versions. */
  | 'PUBLISH'
  /** Inspect and run. */
  | 'VIEW';

/**
 * The whole decision-record setting of a base. Give exactly one of policyId
 * and flowId.
 */
export type SetDecisionRecordsInput = {
  /** Whether stored runs are recorded. */
  enabled: boolean;
  /** Any record id of a flow base, or its base id. */
  flowId?: string | null | undefined;
  /**
   * JSON paths such as $.Person.ssn whose values are replaced by "[masked]"
   * before anything is stored; at most 64, each at most 256 bytes. None
   * when absent.
   */
  mask?: Array<string> | null | undefined;
  /** Any record id of a policy base, or its base id. */
  policyId?: string | null | undefined;
  /** The share of runs recorded, greater than 0 and at most 1; 1 when absent. */
  sampleRate?: number | null | undefined;
};

/** What testFlow takes. */
export type TestFlowInput = {
  /**
   * The input of the flow: a JSON object. Anything else is an
   * invalid_argument error.
   */
  data: unknown;
  /**
   * The definition: a v1 definition object, a legacy nested definition, a
   * UI graph (an object with nodes and edges), or a string holding YAML or
   * JSON of any of these.
   */
  definition: unknown;
};

/** Tests to run on a flow record. */
export type TestFlowRecordInput = {
  /**
   * A flow record's id, or a base id for its latest version (else its
   * draft), as flow(id) takes.
   */
  flowId: string;
  /**
   * The tests to run; omitted, the record's stored tests run. A test's
   * expect is the flow's result (true or false) or the outcome of the custom
   * node it ends on (a string).
   */
  tests?: Array<PolicyTestCaseInput> | null | undefined;
};

/** Tests to run on a policy record. */
export type TestPolicyInput = {
  /**
   * A policy record's id, or a base id for its latest version (else its
   * draft), as policy(id) takes.
   */
  policyId: string;
  /** The tests to run; omitted, the record's stored tests run. */
  tests?: Array<PolicyTestCaseInput> | null | undefined;
};

/**
 * A flow draft and the changes to make to it. An absent field stays as
 * it is.
 */
export type UpdateFlowDraftInput = {
  /**
   * The new definition, in any form testFlow accepts. Null leaves it as it
   * is.
   */
  definition?: unknown;
  /**
   * The new description. Null leaves it as it is; the empty string clears
   * it.
   */
  description?: string | null | undefined;
  /**
   * The draft's record id, or the id of a base whose current record is its
   * draft.
   */
  id: string;
  /** The new name; not blank. Null leaves it as it is. */
  name?: string | null | undefined;
  /**
   * The draft's revision as you last read it: when the draft has changed
   * since, the request is refused with conflict and nothing changes, so that
   * two people editing one draft do not overwrite each other unseen. Null
   * skips the check.
   */
  revision?: number | null | undefined;
  /**
   * The new tests, replacing all the stored ones. Null leaves them as they
   * are; an empty list removes them.
   */
  tests?: Array<FlowTestInput> | null | undefined;
};

/** A group and the changes to make to it. An absent field stays as it is. */
export type UpdateGroupInput = {
  /**
   * The new description. Null leaves it as it is; the empty string clears
   * it.
   */
  description?: string | null | undefined;
  /** The group's id. */
  id: string;
  /** The new name; not blank. Null leaves it as it is. */
  name?: string | null | undefined;
};

/**
 * A policy draft and the changes to make to it. An absent field stays as
 * it is.
 */
export type UpdatePolicyDraftInput = {
  /**
   * The new description. Null leaves it as it is; the empty string clears
   * it.
   */
  description?: string | null | undefined;
  /**
   * The draft's record id, or the id of a base whose current record is its
   * draft.
   */
  id: string;
  /** The new name; not blank. Null leaves it as it is. */
  name?: string | null | undefined;
  /**
   * The draft's revision as you last read it: when the draft has changed
   * since, the request is refused with conflict and nothing changes, so that
   * two people editing one draft do not overwrite each other unseen. Null
   * skips the check.
   */
  revision?: number | null | undefined;
  /** The new rule text. Null leaves it as it is. */
  rule?: string | null | undefined;
  /** The new JSON Schema (an object). Null removes the schema. */
  schema?: unknown;
  /**
   * The new tests, replacing all the stored ones. Null leaves them as they
   * are; an empty list removes them.
   */
  tests?: Array<PolicyTestInput> | null | undefined;
};

/** The type of a value in a trace. */
export type ValueType =
  /** true or false. */
  | 'BOOLEAN'
  /** A date. */
  | 'DATE'
  /** A duration, such as 3 days. */
  | 'DURATION'
  /** In the trace of a text that does not parse: what was expected. */
  | 'EXPECTATION'
  /** A list of values. */
  | 'LIST'
  /** A data value that is null (in emptiness checks). */
  | 'NULL'
  /** A number. */
  | 'NUMBER'
  /** A data value that is an object (in emptiness checks). */
  | 'OBJECT'
  /** In the trace of a text that does not parse: the error. */
  | 'PARSE_ERROR'
  /** A text. */
  | 'STRING';

export type MemberFieldsFragment = { id: string, role: Role, createdAt: string, user: { id: string, email: string, name: string } };

export type ApiKeyFieldsFragment = { id: string, name: string, prefix: string, scope: Scope, createdAt: string, lastUsedAt: string | null, expiresAt: string | null, revokedAt: string | null, owner: { kind: OwnerKind, id: string } };

export type MembersQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  query?: string | null | undefined;
  withTotalCount?: boolean | null | undefined;
}>;


export type MembersQuery = { members: { totalCount?: number, edges: Array<{ node: { id: string, role: Role, createdAt: string, user: { id: string, email: string, name: string } } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } };

export type KeysQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  query?: string | null | undefined;
  withTotalCount?: boolean | null | undefined;
}>;


export type KeysQuery = { keys: { totalCount?: number, edges: Array<{ cursor: string, node: { id: string, name: string, prefix: string, scope: Scope, createdAt: string, lastUsedAt: string | null, expiresAt: string | null, revokedAt: string | null, owner: { kind: OwnerKind, id: string } } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } };

export type AddMemberMutationVariables = Exact<{
  input: AddMemberInput;
}>;


export type AddMemberMutation = { addMember: { id: string, role: Role, createdAt: string, user: { id: string, email: string, name: string } } | null };

export type ChangeMemberRoleMutationVariables = Exact<{
  input: ChangeMemberRoleInput;
}>;


export type ChangeMemberRoleMutation = { changeMemberRole: { id: string, role: Role, createdAt: string, user: { id: string, email: string, name: string } } | null };

export type RemoveMemberMutationVariables = Exact<{
  input: RemoveMemberInput;
}>;


export type RemoveMemberMutation = { removeMember: boolean | null };

export type CreateKeyMutationVariables = Exact<{
  input: CreateKeyInput;
}>;


export type CreateKeyMutation = { createKey: { secret: string, key: { id: string, name: string, prefix: string, scope: Scope, createdAt: string, lastUsedAt: string | null, expiresAt: string | null, revokedAt: string | null, owner: { kind: OwnerKind, id: string } } } | null };

export type RevokeKeyMutationVariables = Exact<{
  input: RevokeKeyInput;
}>;


export type RevokeKeyMutation = { revokeKey: boolean | null };

export type AuditEventFieldsFragment = { id: string, at: string, action: AuditAction, kind: AuditKind, baseId: string | null, recordId: string | null, groupId: string | null, details: unknown, actor: { kind: ActorKind, id: string } };

export type AuditEventsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  filter?: AuditFilter | null | undefined;
  withTotalCount?: boolean | null | undefined;
}>;


export type AuditEventsQuery = { auditEvents: { totalCount?: number, edges: Array<{ cursor: string, node: { id: string, at: string, action: AuditAction, kind: AuditKind, baseId: string | null, recordId: string | null, groupId: string | null, details: unknown, actor: { kind: ActorKind, id: string } } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } };

export type SourceRangeFieldsFragment = { start: { line: number, column: number }, end: { line: number, column: number } };

export type DiagnosticFieldsFragment = { severity: DiagnosticSeverity, code: string, message: string, suggestions: Array<string>, range: { start: { line: number, column: number }, end: { line: number, column: number } } };

export type CheckRuleQueryVariables = Exact<{
  rule: string;
  schema?: unknown;
}>;


export type CheckRuleQuery = { checkRule: { tokens: Array<{ kind: string, range: { start: { line: number, column: number }, end: { line: number, column: number } } }>, diagnostics: Array<{ severity: DiagnosticSeverity, code: string, message: string, suggestions: Array<string>, range: { start: { line: number, column: number }, end: { line: number, column: number } } }> } };

export type CheckRuleDiagnosticsQueryVariables = Exact<{
  rule: string;
  schema?: unknown;
}>;


export type CheckRuleDiagnosticsQuery = { checkRule: { diagnostics: Array<{ severity: DiagnosticSeverity, code: string, message: string, suggestions: Array<string>, range: { start: { line: number, column: number }, end: { line: number, column: number } } }> } };

export type TestPolicyMutationVariables = Exact<{
  input: TestPolicyInput;
}>;


export type TestPolicyMutation = { testPolicy: { passed: boolean, total: number, failed: number, results: Array<{ name: string, expected: unknown, actual: unknown, passed: boolean, explanation: string, error: string | null }> } | null };

export type TestFlowRecordMutationVariables = Exact<{
  input: TestFlowRecordInput;
}>;


export type TestFlowRecordMutation = { testFlowRecord: { passed: boolean, total: number, failed: number, results: Array<{ name: string, expected: unknown, actual: unknown, passed: boolean, explanation: string, error: string | null }> } | null };

export type DecisionRecordSettingsFieldsFragment = { baseId: string, enabled: boolean, sampleRate: number, mask: Array<string> };

export type DecisionFieldsFragment = { id: string, kind: AuditKind, baseId: string, recordId: string, version: number | null, revision: number, at: string, result: boolean, explanation: string, durationNs: string, data: unknown, actor: { kind: ActorKind, id: string }, policies: Array<{ ref: unknown, recordId: string, revision: number }> | null };

export type ReplayFieldsFragment = { compared: number, changed: number, unchanged: number, errors: number, items: Array<{ decisionId: string, at: string, changed: boolean, before: { result: boolean, explanation: string, error: string | null }, after: { result: boolean, explanation: string, error: string | null } }> };

export type PolicyDecisionRecordsQueryVariables = Exact<{
  id: string;
}>;


export type PolicyDecisionRecordsQuery = { policyDecisionRecords: { baseId: string, enabled: boolean, sampleRate: number, mask: Array<string> } | null };

export type FlowDecisionRecordsQueryVariables = Exact<{
  id: string;
}>;


export type FlowDecisionRecordsQuery = { flowDecisionRecords: { baseId: string, enabled: boolean, sampleRate: number, mask: Array<string> } | null };

export type SetDecisionRecordsMutationVariables = Exact<{
  input: SetDecisionRecordsInput;
}>;


export type SetDecisionRecordsMutation = { setDecisionRecords: { baseId: string, enabled: boolean, sampleRate: number, mask: Array<string> } | null };

export type DecisionsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  filter?: DecisionFilter | null | undefined;
  withTotalCount?: boolean | null | undefined;
}>;


export type DecisionsQuery = { decisions: { totalCount?: number, edges: Array<{ cursor: string, node: { id: string, kind: AuditKind, baseId: string, recordId: string, version: number | null, revision: number, at: string, result: boolean, explanation: string, durationNs: string, data: unknown, actor: { kind: ActorKind, id: string }, policies: Array<{ ref: unknown, recordId: string, revision: number }> | null } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } };

export type DecisionQueryVariables = Exact<{
  id: string;
}>;


export type DecisionQuery = { decision: { note: string | null, id: string, kind: AuditKind, baseId: string, recordId: string, version: number | null, revision: number, at: string, result: boolean, explanation: string, durationNs: string, data: unknown, recomputed: { result: boolean, explanation: string, error: string | null, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
            | { __typename: 'ComparisonCondition', selector: string, operator: ComparisonOperator, result: boolean, property: { path: string, value: unknown }, value: { type: ValueType, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: ValueType, value: unknown }, rightValue: { type: ValueType, value: unknown } } | null }
            | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
          > }> }, flow: { nodeId: string, nodeName: string, result: boolean, executionPath: Array<string>, finalOutcome: boolean, outcome: string | null, errors: Array<string>, nodeResponses: Array<{ nodeId: string, nodeType: NodeType, response: { result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, explanation: string, warnings: Array<{ code: string, message: string }>, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
                  | { __typename: 'ComparisonCondition', selector: string, operator: ComparisonOperator, result: boolean, property: { path: string, value: unknown }, value: { type: ValueType, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: ValueType, value: unknown }, rightValue: { type: ValueType, value: unknown } } | null }
                  | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
                > }> } | null }, execution: { database: string, engine: string, total: string } }> } | null } | null, actor: { kind: ActorKind, id: string }, policies: Array<{ ref: unknown, recordId: string, revision: number }> | null } | null };

export type ReplayPolicyMutationVariables = Exact<{
  input: ReplayPolicyInput;
}>;


export type ReplayPolicyMutation = { replayPolicy: { compared: number, changed: number, unchanged: number, errors: number, items: Array<{ decisionId: string, at: string, changed: boolean, before: { result: boolean, explanation: string, error: string | null }, after: { result: boolean, explanation: string, error: string | null } }> } | null };

export type ReplayFlowMutationVariables = Exact<{
  input: ReplayFlowInput;
}>;


export type ReplayFlowMutation = { replayFlow: { compared: number, changed: number, unchanged: number, errors: number, items: Array<{ decisionId: string, at: string, changed: boolean, before: { result: boolean, explanation: string, error: string | null }, after: { result: boolean, explanation: string, error: string | null } }> } | null };

export type FlowFieldsFragment = { id: string, baseId: string, name: string, description: string, definition: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: unknown }>, owner: { kind: OwnerKind, id: string } };

export type SavedFlowFieldsFragment = { flow: { id: string, baseId: string, name: string, description: string, definition: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: unknown }>, owner: { kind: OwnerKind, id: string } }, validation: { errors: Array<string>, warnings: Array<string> } };

export type FlowSummaryFieldsFragment = { id: string, baseId: string, name: string, latestVersion: number | null, latestVersionId: string | null, draftId: string | null, hasDraft: boolean, updatedAt: string, owner: { kind: OwnerKind, id: string } };

export type FlowRunResultFieldsFragment = { nodeId: string, nodeName: string, result: boolean, executionPath: Array<string>, finalOutcome: boolean, outcome: string | null, errors: Array<string>, nodeResponses: Array<{ nodeId: string, nodeType: NodeType, response: { result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, explanation: string, warnings: Array<{ code: string, message: string }>, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
            | { __typename: 'ComparisonCondition', selector: string, operator: ComparisonOperator, result: boolean, property: { path: string, value: unknown }, value: { type: ValueType, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: ValueType, value: unknown }, rightValue: { type: ValueType, value: unknown } } | null }
            | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
          > }> } | null }, execution: { database: string, engine: string, total: string } }> };

export type FlowQueryVariables = Exact<{
  id: string;
}>;


export type FlowQuery = { flow: { id: string, baseId: string, name: string, description: string, definition: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: unknown }>, owner: { kind: OwnerKind, id: string } } | null };

export type FlowValidationQueryVariables = Exact<{
  id: string;
}>;


export type FlowValidationQuery = { flowValidation: { errors: Array<string>, warnings: Array<string> } | null };

export type FlowVersionsQueryVariables = Exact<{
  id: string;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type FlowVersionsQuery = { flowVersions: { baseId: string, nextCursor: string, draft: { id: string, baseId: string, name: string, description: string, definition: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: unknown }>, owner: { kind: OwnerKind, id: string } } | null, versions: Array<{ id: string, baseId: string, name: string, description: string, definition: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: unknown }>, owner: { kind: OwnerKind, id: string } }> } | null };

export type FlowsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  query?: string | null | undefined;
  groupId?: string | null | undefined;
  notInGroupId?: string | null | undefined;
  withTotalCount?: boolean | null | undefined;
}>;


export type FlowsQuery = { flows: { totalCount?: number, edges: Array<{ cursor: string, node: { id: string, baseId: string, name: string, latestVersion: number | null, latestVersionId: string | null, draftId: string | null, hasDraft: boolean, updatedAt: string, owner: { kind: OwnerKind, id: string } } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } };

export type CreateFlowMutationVariables = Exact<{
  input: CreateFlowInput;
}>;


export type CreateFlowMutation = { createFlow: { flow: { id: string, baseId: string, name: string, description: string, definition: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: unknown }>, owner: { kind: OwnerKind, id: string } }, validation: { errors: Array<string>, warnings: Array<string> } } | null };

export type UpdateFlowDraftMutationVariables = Exact<{
  input: UpdateFlowDraftInput;
}>;


export type UpdateFlowDraftMutation = { updateFlowDraft: { flow: { id: string, baseId: string, name: string, description: string, definition: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: unknown }>, owner: { kind: OwnerKind, id: string } }, validation: { errors: Array<string>, warnings: Array<string> } } | null };

export type PublishFlowMutationVariables = Exact<{
  input: PublishFlowInput;
}>;


export type PublishFlowMutation = { publishFlow: { id: string, baseId: string, name: string, description: string, definition: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: unknown }>, owner: { kind: OwnerKind, id: string } } | null };

export type CreateFlowDraftFromVersionMutationVariables = Exact<{
  input: CreateFlowDraftFromVersionInput;
}>;


export type CreateFlowDraftFromVersionMutation = { createFlowDraftFromVersion: { id: string, baseId: string, name: string, description: string, definition: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: unknown }>, owner: { kind: OwnerKind, id: string } } | null };

export type DeleteFlowMutationVariables = Exact<{
  input: DeleteFlowInput;
}>;


export type DeleteFlowMutation = { deleteFlow: boolean | null };

export type RunFlowMutationVariables = Exact<{
  input: RunFlowInput;
}>;


export type RunFlowMutation = { runFlow: { nodeId: string, nodeName: string, result: boolean, executionPath: Array<string>, finalOutcome: boolean, outcome: string | null, errors: Array<string>, nodeResponses: Array<{ nodeId: string, nodeType: NodeType, response: { result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, explanation: string, warnings: Array<{ code: string, message: string }>, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
              | { __typename: 'ComparisonCondition', selector: string, operator: ComparisonOperator, result: boolean, property: { path: string, value: unknown }, value: { type: ValueType, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: ValueType, value: unknown }, rightValue: { type: ValueType, value: unknown } } | null }
              | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
            > }> } | null }, execution: { database: string, engine: string, total: string } }> } | null };

export type RunFlowVersionMutationVariables = Exact<{
  input: RunFlowVersionInput;
}>;


export type RunFlowVersionMutation = { runFlowVersion: { nodeId: string, nodeName: string, result: boolean, executionPath: Array<string>, finalOutcome: boolean, outcome: string | null, errors: Array<string>, nodeResponses: Array<{ nodeId: string, nodeType: NodeType, response: { result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, explanation: string, warnings: Array<{ code: string, message: string }>, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
              | { __typename: 'ComparisonCondition', selector: string, operator: ComparisonOperator, result: boolean, property: { path: string, value: unknown }, value: { type: ValueType, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: ValueType, value: unknown }, rightValue: { type: ValueType, value: unknown } } | null }
              | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
            > }> } | null }, execution: { database: string, engine: string, total: string } }> } | null };

export type RunFlowBatchMutationVariables = Exact<{
  input: RunFlowBatchInput;
}>;


export type RunFlowBatchMutation = { runFlowBatch: { results: Array<{ nodeId: string, nodeName: string, result: boolean, executionPath: Array<string>, finalOutcome: boolean, outcome: string | null, errors: Array<string>, nodeResponses: Array<{ nodeId: string, nodeType: NodeType, response: { result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, explanation: string, warnings: Array<{ code: string, message: string }>, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
                | { __typename: 'ComparisonCondition', selector: string, operator: ComparisonOperator, result: boolean, property: { path: string, value: unknown }, value: { type: ValueType, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: ValueType, value: unknown }, rightValue: { type: ValueType, value: unknown } } | null }
                | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
              > }> } | null }, execution: { database: string, engine: string, total: string } }> }>, execution: { total: string } } | null };

export type RunFlowVersionBatchMutationVariables = Exact<{
  input: RunFlowVersionBatchInput;
}>;


export type RunFlowVersionBatchMutation = { runFlowVersionBatch: { results: Array<{ nodeId: string, nodeName: string, result: boolean, executionPath: Array<string>, finalOutcome: boolean, outcome: string | null, errors: Array<string>, nodeResponses: Array<{ nodeId: string, nodeType: NodeType, response: { result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, explanation: string, warnings: Array<{ code: string, message: string }>, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
                | { __typename: 'ComparisonCondition', selector: string, operator: ComparisonOperator, result: boolean, property: { path: string, value: unknown }, value: { type: ValueType, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: ValueType, value: unknown }, rightValue: { type: ValueType, value: unknown } } | null }
                | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
              > }> } | null }, execution: { database: string, engine: string, total: string } }> }>, execution: { total: string } } | null };

export type TestFlowMutationVariables = Exact<{
  input: TestFlowInput;
}>;


export type TestFlowMutation = { testFlow: { nodeId: string, nodeName: string, result: boolean, executionPath: Array<string>, finalOutcome: boolean, outcome: string | null, errors: Array<string>, nodeResponses: Array<{ nodeId: string, nodeType: NodeType, response: { result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, explanation: string, warnings: Array<{ code: string, message: string }>, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
              | { __typename: 'ComparisonCondition', selector: string, operator: ComparisonOperator, result: boolean, property: { path: string, value: unknown }, value: { type: ValueType, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: ValueType, value: unknown }, rightValue: { type: ValueType, value: unknown } } | null }
              | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
            > }> } | null }, execution: { database: string, engine: string, total: string } }> } | null };

export type FlowDiffQueryVariables = Exact<{
  id: string;
  otherId: string;
}>;


export type FlowDiffQuery = { flowDiff: { baseId: string, from: { id: string, status: RecordStatus, version: number | null }, to: { id: string, status: RecordStatus, version: number | null }, name: { before: string, after: string } | null, description: { before: string, after: string } | null, start: { before: string, after: string } | null, nodes: { added: Array<unknown>, removed: Array<unknown>, changed: Array<{ id: string, before: unknown, after: unknown }> }, edges: { added: Array<{ from: string, branch: string, to: string }>, removed: Array<{ from: string, branch: string, to: string }> }, tests: { added: Array<{ name: string, data: unknown, expect: unknown }>, removed: Array<{ name: string, data: unknown, expect: unknown }>, changed: Array<{ name: string, before: { name: string, data: unknown, expect: unknown }, after: { name: string, data: unknown, expect: unknown } }> } } | null };

export type RollbackFlowMutationVariables = Exact<{
  input: RollbackFlowInput;
}>;


export type RollbackFlowMutation = { rollbackFlow: { id: string, baseId: string, name: string, description: string, definition: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: unknown }>, owner: { kind: OwnerKind, id: string } } | null };

export type GroupFieldsFragment = { id: string, name: string, description: string, createdAt: string, updatedAt: string };

export type GroupMemberFieldsFragment = { id: string, groupId: string, kind: GroupMemberKind, baseId: string, createdAt: string };

export type GroupQueryVariables = Exact<{
  id: string;
}>;


export type GroupQuery = { group: { id: string, name: string, description: string, createdAt: string, updatedAt: string } | null };

export type GroupPoliciesQueryVariables = Exact<{
  id: string;
  first?: number | null | undefined;
  after?: string | null | undefined;
  query?: string | null | undefined;
  withTotalCount?: boolean | null | undefined;
}>;


export type GroupPoliciesQuery = { group: { id: string, policies: { totalCount?: number, edges: Array<{ cursor: string, node: { id: string, baseId: string, name: string, latestVersion: number | null, latestVersionId: string | null, draftId: string | null, hasDraft: boolean, updatedAt: string, owner: { kind: OwnerKind, id: string } } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } } | null };

export type GroupFlowsQueryVariables = Exact<{
  id: string;
  first?: number | null | undefined;
  after?: string | null | undefined;
  query?: string | null | undefined;
  withTotalCount?: boolean | null | undefined;
}>;


export type GroupFlowsQuery = { group: { id: string, flows: { totalCount?: number, edges: Array<{ cursor: string, node: { id: string, baseId: string, name: string, latestVersion: number | null, latestVersionId: string | null, draftId: string | null, hasDraft: boolean, updatedAt: string, owner: { kind: OwnerKind, id: string } } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } } | null };

export type GroupsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  query?: string | null | undefined;
  withTotalCount?: boolean | null | undefined;
}>;


export type GroupsQuery = { groups: { totalCount?: number, edges: Array<{ cursor: string, node: { id: string, name: string, description: string, createdAt: string, updatedAt: string } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } };

export type GroupMembershipQueryVariables = Exact<{
  id: string;
  kind: GroupMemberKind;
  baseId: string;
}>;


export type GroupMembershipQuery = { group: { id: string, membership: { id: string, groupId: string, kind: GroupMemberKind, baseId: string, createdAt: string } | null } | null };

export type CreateGroupMutationVariables = Exact<{
  input: CreateGroupInput;
}>;


export type CreateGroupMutation = { createGroup: { id: string, name: string, description: string, createdAt: string, updatedAt: string } | null };

export type UpdateGroupMutationVariables = Exact<{
  input: UpdateGroupInput;
}>;


export type UpdateGroupMutation = { updateGroup: { id: string, name: string, description: string, createdAt: string, updatedAt: string } | null };

export type DeleteGroupMutationVariables = Exact<{
  input: DeleteGroupInput;
}>;


export type DeleteGroupMutation = { deleteGroup: boolean | null };

export type AddGroupMemberMutationVariables = Exact<{
  input: AddGroupMemberInput;
}>;


export type AddGroupMemberMutation = { addGroupMember: { id: string, groupId: string, kind: GroupMemberKind, baseId: string, createdAt: string } | null };

export type RemoveGroupMemberMutationVariables = Exact<{
  input: RemoveGroupMemberInput;
}>;


export type RemoveGroupMemberMutation = { removeGroupMember: boolean | null };

export type NodeQueryVariables = Exact<{
  id: string;
}>;


export type NodeQuery = { node:
    | { __typename: 'APIKey', id: string, name: string, prefix: string, scope: Scope, createdAt: string, lastUsedAt: string | null, expiresAt: string | null, revokedAt: string | null, owner: { kind: OwnerKind, id: string } }
    | { __typename: 'AuditEvent', at: string, action: AuditAction, recordId: string | null, details: unknown, id: string, eventKind: AuditKind, eventBaseId: string | null, eventGroupId: string | null, actor: { kind: ActorKind, id: string } }
    | { __typename: 'Decision', id: string }
    | { __typename: 'Flow', baseId: string, name: string, description: string, definition: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, id: string, flowTests: Array<{ name: string, data: unknown, expect: unknown }>, owner: { kind: OwnerKind, id: string } }
    | { __typename: 'FlowSummary', id: string, baseId: string, name: string, latestVersion: number | null, latestVersionId: string | null, draftId: string | null, hasDraft: boolean, updatedAt: string, owner: { kind: OwnerKind, id: string } }
    | { __typename: 'Group', id: string, name: string, description: string, createdAt: string, updatedAt: string }
    | { __typename: 'GroupMember', id: string, groupId: string, kind: GroupMemberKind, baseId: string, createdAt: string }
    | { __typename: 'Member', id: string, role: Role, createdAt: string, user: { id: string, email: string, name: string } }
    | { __typename: 'Organization', name: string, createdAt: string, id: string }
    | { __typename: 'Policy', id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } }
    | { __typename: 'PolicySummary', id: string, baseId: string, name: string, latestVersion: number | null, latestVersionId: string | null, draftId: string | null, hasDraft: boolean, updatedAt: string, owner: { kind: OwnerKind, id: string } }
    | { __typename: 'User', email: string, name: string, id: string }
   | null };

export type PolicyFieldsFragment = { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } };

export type SavedPolicyFieldsFragment = { policy: { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } }, validation: { errors: Array<string> } };

export type PolicySummaryFieldsFragment = { id: string, baseId: string, name: string, latestVersion: number | null, latestVersionId: string | null, draftId: string | null, hasDraft: boolean, updatedAt: string, owner: { kind: OwnerKind, id: string } };

export type PolicyQueryVariables = Exact<{
  id: string;
}>;


export type PolicyQuery = { policy: { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } } | null };

export type PolicyVersionsQueryVariables = Exact<{
  id: string;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type PolicyVersionsQuery = { policyVersions: { baseId: string, nextCursor: string, draft: { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } } | null, versions: Array<{ id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } }> } | null };

export type PoliciesQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  query?: string | null | undefined;
  groupId?: string | null | undefined;
  notInGroupId?: string | null | undefined;
  withTotalCount?: boolean | null | undefined;
}>;


export type PoliciesQuery = { policies: { totalCount?: number, edges: Array<{ cursor: string, node: { id: string, baseId: string, name: string, latestVersion: number | null, latestVersionId: string | null, draftId: string | null, hasDraft: boolean, updatedAt: string, owner: { kind: OwnerKind, id: string } } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } };

export type CreatePolicyMutationVariables = Exact<{
  input: CreatePolicyInput;
}>;


export type CreatePolicyMutation = { createPolicy: { policy: { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } }, validation: { errors: Array<string> } } | null };

export type UpdatePolicyDraftMutationVariables = Exact<{
  input: UpdatePolicyDraftInput;
}>;


export type UpdatePolicyDraftMutation = { updatePolicyDraft: { policy: { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } }, validation: { errors: Array<string> } } | null };

export type PublishPolicyMutationVariables = Exact<{
  input: PublishPolicyInput;
}>;


export type PublishPolicyMutation = { publishPolicy: { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } } | null };

export type CreatePolicyDraftFromVersionMutationVariables = Exact<{
  input: CreatePolicyDraftFromVersionInput;
}>;


export type CreatePolicyDraftFromVersionMutation = { createPolicyDraftFromVersion: { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } } | null };

export type DeletePolicyMutationVariables = Exact<{
  input: DeletePolicyInput;
}>;


export type DeletePolicyMutation = { deletePolicy: boolean | null };

export type RunPolicyMutationVariables = Exact<{
  input: RunPolicyInput;
}>;


export type RunPolicyMutation = { runPolicy: { result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, explanation: string, warnings: Array<{ code: string, message: string }>, execution: { engine: string, total: string, orchestrator: { go: string, database: string, total: string } }, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
          | { __typename: 'ComparisonCondition', selector: string, operator: ComparisonOperator, result: boolean, property: { path: string, value: unknown }, value: { type: ValueType, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: ValueType, value: unknown }, rightValue: { type: ValueType, value: unknown } } | null }
          | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
        > }> } } | null };

export type RunPolicyVersionMutationVariables = Exact<{
  input: RunPolicyVersionInput;
}>;


export type RunPolicyVersionMutation = { runPolicyVersion: { result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, explanation: string, warnings: Array<{ code: string, message: string }>, execution: { engine: string, total: string, orchestrator: { go: string, database: string, total: string } }, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
          | { __typename: 'ComparisonCondition', selector: string, operator: ComparisonOperator, result: boolean, property: { path: string, value: unknown }, value: { type: ValueType, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: ValueType, value: unknown }, rightValue: { type: ValueType, value: unknown } } | null }
          | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
        > }> } } | null };

export type RunPolicyBatchMutationVariables = Exact<{
  input: RunPolicyBatchInput;
}>;


export type RunPolicyBatchMutation = { runPolicyBatch: { results: Array<{ result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, explanation: string, warnings: Array<{ code: string, message: string }>, execution: { engine: string, total: string, orchestrator: { go: string, database: string, total: string } }, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
            | { __typename: 'ComparisonCondition', selector: string, operator: ComparisonOperator, result: boolean, property: { path: string, value: unknown }, value: { type: ValueType, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: ValueType, value: unknown }, rightValue: { type: ValueType, value: unknown } } | null }
            | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
          > }> } }>, execution: { engine: string, total: string, orchestrator: { go: string, database: string, total: string } } } | null };

export type RunPolicyVersionBatchMutationVariables = Exact<{
  input: RunPolicyVersionBatchInput;
}>;


export type RunPolicyVersionBatchMutation = { runPolicyVersionBatch: { results: Array<{ result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, explanation: string, warnings: Array<{ code: string, message: string }>, execution: { engine: string, total: string, orchestrator: { go: string, database: string, total: string } }, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
            | { __typename: 'ComparisonCondition', selector: string, operator: ComparisonOperator, result: boolean, property: { path: string, value: unknown }, value: { type: ValueType, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: ValueType, value: unknown }, rightValue: { type: ValueType, value: unknown } } | null }
            | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
          > }> } }>, execution: { engine: string, total: string, orchestrator: { go: string, database: string, total: string } } } | null };

export type DiffSideFieldsFragment = { id: string, status: RecordStatus, version: number | null };

export type DiffHunkFieldsFragment = { fromLine: number, fromCount: number, toLine: number, toCount: number, lines: Array<{ kind: DiffLineKind, text: string }> };

export type PolicyDiffQueryVariables = Exact<{
  id: string;
  otherId: string;
}>;


export type PolicyDiffQuery = { policyDiff: { baseId: string, from: { id: string, status: RecordStatus, version: number | null }, to: { id: string, status: RecordStatus, version: number | null }, name: { before: string, after: string } | null, description: { before: string, after: string } | null, rule: Array<{ fromLine: number, fromCount: number, toLine: number, toCount: number, lines: Array<{ kind: DiffLineKind, text: string }> }>, tests: { added: Array<{ name: string, data: unknown, expect: boolean }>, removed: Array<{ name: string, data: unknown, expect: boolean }>, changed: Array<{ name: string, before: { name: string, data: unknown, expect: boolean }, after: { name: string, data: unknown, expect: boolean } }> }, schema: Array<{ path: string, change: JsonChangeKind, before: unknown, after: unknown }> } | null };

export type RollbackPolicyMutationVariables = Exact<{
  input: RollbackPolicyInput;
}>;


export type RollbackPolicyMutation = { rollbackPolicy: { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } } | null };

export type TypedValueFieldsFragment = { type: ValueType, value: unknown };

export type RunResultFieldsFragment = { result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, explanation: string, warnings: Array<{ code: string, message: string }>, execution: { engine: string, total: string, orchestrator: { go: string, database: string, total: string } }, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
        | { __typename: 'ComparisonCondition', selector: string, operator: ComparisonOperator, result: boolean, property: { path: string, value: unknown }, value: { type: ValueType, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: ValueType, value: unknown }, rightValue: { type: ValueType, value: unknown } } | null }
        | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
      > }> } };

export type TraceFieldsFragment = { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
      | { __typename: 'ComparisonCondition', selector: string, operator: ComparisonOperator, result: boolean, property: { path: string, value: unknown }, value: { type: ValueType, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: ValueType, value: unknown }, rightValue: { type: ValueType, value: unknown } } | null }
      | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
    > }> };

export type RunRuleMutationVariables = Exact<{
  input: RunRuleInput;
}>;


export type RunRuleMutation = { runRule: { result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, explanation: string, warnings: Array<{ code: string, message: string }>, execution: { engine: string, total: string, orchestrator: { go: string, database: string, total: string } }, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
          | { __typename: 'ComparisonCondition', selector: string, operator: ComparisonOperator, result: boolean, property: { path: string, value: unknown }, value: { type: ValueType, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: ValueType, value: unknown }, rightValue: { type: ValueType, value: unknown } } | null }
          | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
        > }> } } | null };

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { viewer: { role: Role, user: { id: string, email: string, name: string } | null, organization: { id: string, name: string }, key: { id: string, name: string, prefix: string, scope: Scope, owner: { kind: OwnerKind, id: string } } } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const MemberFieldsFragmentDoc = new TypedDocumentString(`
    fragment MemberFields on Member {
  id
  user {
    id
    email
    name
  }
  role
  createdAt
}
    `, {"fragmentName":"MemberFields"}) as unknown as TypedDocumentString<MemberFieldsFragment, unknown>;
export const ApiKeyFieldsFragmentDoc = new TypedDocumentString(`
    fragment APIKeyFields on APIKey {
  id
  name
  prefix
  scope
  owner {
    kind
    id
  }
  createdAt
  lastUsedAt
  expiresAt
  revokedAt
}
    `, {"fragmentName":"APIKeyFields"}) as unknown as TypedDocumentString<ApiKeyFieldsFragment, unknown>;
export const AuditEventFieldsFragmentDoc = new TypedDocumentString(`
    fragment AuditEventFields on AuditEvent {
  id
  at
  action
  kind
  baseId
  recordId
  groupId
  actor {
    kind
    id
  }
  details
}
    `, {"fragmentName":"AuditEventFields"}) as unknown as TypedDocumentString<AuditEventFieldsFragment, unknown>;
export const SourceRangeFieldsFragmentDoc = new TypedDocumentString(`
    fragment SourceRangeFields on SourceRange {
  start {
    line
    column
  }
  end {
    line
    column
  }
}
    `, {"fragmentName":"SourceRangeFields"}) as unknown as TypedDocumentString<SourceRangeFieldsFragment, unknown>;
export const DiagnosticFieldsFragmentDoc = new TypedDocumentString(`
    fragment DiagnosticFields on Diagnostic {
  severity
  code
  message
  range {
    ...SourceRangeFields
  }
  suggestions
}
    fragment SourceRangeFields on SourceRange {
  start {
    line
    column
  }
  end {
    line
    column
  }
}`, {"fragmentName":"DiagnosticFields"}) as unknown as TypedDocumentString<DiagnosticFieldsFragment, unknown>;
export const DecisionRecordSettingsFieldsFragmentDoc = new TypedDocumentString(`
    fragment DecisionRecordSettingsFields on DecisionRecordSettings {
  baseId
  enabled
  sampleRate
  mask
}
    `, {"fragmentName":"DecisionRecordSettingsFields"}) as unknown as TypedDocumentString<DecisionRecordSettingsFieldsFragment, unknown>;
export const DecisionFieldsFragmentDoc = new TypedDocumentString(`
    fragment DecisionFields on Decision {
  id
  kind
  baseId
  recordId
  version
  revision
  at
  result
  explanation
  durationNs
  actor {
    kind
    id
  }
  data
  policies {
    ref
    recordId
    revision
  }
}
    `, {"fragmentName":"DecisionFields"}) as unknown as TypedDocumentString<DecisionFieldsFragment, unknown>;
export const ReplayFieldsFragmentDoc = new TypedDocumentString(`
    fragment ReplayFields on Replay {
  compared
  changed
  unchanged
  errors
  items {
    decisionId
    at
    changed
    before {
      result
      explanation
      error
    }
    after {
      result
      explanation
      error
    }
  }
}
    `, {"fragmentName":"ReplayFields"}) as unknown as TypedDocumentString<ReplayFieldsFragment, unknown>;
export const FlowFieldsFragmentDoc = new TypedDocumentString(`
    fragment FlowFields on Flow {
  id
  baseId
  name
  description
  definition
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}
    `, {"fragmentName":"FlowFields"}) as unknown as TypedDocumentString<FlowFieldsFragment, unknown>;
export const SavedFlowFieldsFragmentDoc = new TypedDocumentString(`
    fragment SavedFlowFields on SavedFlow {
  flow {
    ...FlowFields
  }
  validation {
    errors
    warnings
  }
}
    fragment FlowFields on Flow {
  id
  baseId
  name
  description
  definition
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}`, {"fragmentName":"SavedFlowFields"}) as unknown as TypedDocumentString<SavedFlowFieldsFragment, unknown>;
export const FlowSummaryFieldsFragmentDoc = new TypedDocumentString(`
    fragment FlowSummaryFields on FlowSummary {
  id
  baseId
  name
  owner {
    kind
    id
  }
  latestVersion
  latestVersionId
  draftId
  hasDraft
  updatedAt
}
    `, {"fragmentName":"FlowSummaryFields"}) as unknown as TypedDocumentString<FlowSummaryFieldsFragment, unknown>;
export const TypedValueFieldsFragmentDoc = new TypedDocumentString(`
    fragment TypedValueFields on TypedValue {
  type
  value
}
    `, {"fragmentName":"TypedValueFields"}) as unknown as TypedDocumentString<TypedValueFieldsFragment, unknown>;
export const TraceFieldsFragmentDoc = new TypedDocumentString(`
    fragment TraceFields on Trace {
  execution {
    label
    selector
    outcome
    result
    conditions {
      __typename
      ... on ComparisonCondition {
        selector
        property {
          path
          value
        }
        operator
        value {
          ...TypedValueFields
        }
        evaluationDetails {
          leftValue {
            ...TypedValueFields
          }
          rightValue {
            ...TypedValueFields
          }
          comparisonResult
        }
        result
      }
      ... on ReferenceCondition {
        selector
        ruleName
        referencedRuleOutcome
        propertyCheck {
          propertyName
          propertyValue
        }
        result
      }
    }
  }
}
    fragment TypedValueFields on TypedValue {
  type
  value
}`, {"fragmentName":"TraceFields"}) as unknown as TypedDocumentString<TraceFieldsFragment, unknown>;
export const FlowRunResultFieldsFragmentDoc = new TypedDocumentString(`
    fragment FlowRunResultFields on FlowRunResult {
  nodeId
  nodeName
  result
  executionPath
  finalOutcome
  outcome
  errors
  nodeResponses {
    nodeId
    nodeType
    response {
      result
      rule
      data
      error
      labels
      explanation
      warnings {
        code
        message
      }
      trace {
        ...TraceFields
      }
    }
    execution {
      database
      engine
      total
    }
  }
}
    fragment TypedValueFields on TypedValue {
  type
  value
}
fragment TraceFields on Trace {
  execution {
    label
    selector
    outcome
    result
    conditions {
      __typename
      ... on ComparisonCondition {
        selector
        property {
          path
          value
        }
        operator
        value {
          ...TypedValueFields
        }
        evaluationDetails {
          leftValue {
            ...TypedValueFields
          }
          rightValue {
            ...TypedValueFields
          }
          comparisonResult
        }
        result
      }
      ... on ReferenceCondition {
        selector
        ruleName
        referencedRuleOutcome
        propertyCheck {
          propertyName
          propertyValue
        }
        result
      }
    }
  }
}`, {"fragmentName":"FlowRunResultFields"}) as unknown as TypedDocumentString<FlowRunResultFieldsFragment, unknown>;
export const GroupFieldsFragmentDoc = new TypedDocumentString(`
    fragment GroupFields on Group {
  id
  name
  description
  createdAt
  updatedAt
}
    `, {"fragmentName":"GroupFields"}) as unknown as TypedDocumentString<GroupFieldsFragment, unknown>;
export const GroupMemberFieldsFragmentDoc = new TypedDocumentString(`
    fragment GroupMemberFields on GroupMember {
  id
  groupId
  kind
  baseId
  createdAt
}
    `, {"fragmentName":"GroupMemberFields"}) as unknown as TypedDocumentString<GroupMemberFieldsFragment, unknown>;
export const PolicyFieldsFragmentDoc = new TypedDocumentString(`
    fragment PolicyFields on Policy {
  id
  baseId
  name
  description
  rule
  schema
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}
    `, {"fragmentName":"PolicyFields"}) as unknown as TypedDocumentString<PolicyFieldsFragment, unknown>;
export const SavedPolicyFieldsFragmentDoc = new TypedDocumentString(`
    fragment SavedPolicyFields on SavedPolicy {
  policy {
    ...PolicyFields
  }
  validation {
    errors
  }
}
    fragment PolicyFields on Policy {
  id
  baseId
  name
  description
  rule
  schema
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}`, {"fragmentName":"SavedPolicyFields"}) as unknown as TypedDocumentString<SavedPolicyFieldsFragment, unknown>;
export const PolicySummaryFieldsFragmentDoc = new TypedDocumentString(`
    fragment PolicySummaryFields on PolicySummary {
  id
  baseId
  name
  owner {
    kind
    id
  }
  latestVersion
  latestVersionId
  draftId
  hasDraft
  updatedAt
}
    `, {"fragmentName":"PolicySummaryFields"}) as unknown as TypedDocumentString<PolicySummaryFieldsFragment, unknown>;
export const DiffSideFieldsFragmentDoc = new TypedDocumentString(`
    fragment DiffSideFields on DiffSide {
  id
  status
  version
}
    `, {"fragmentName":"DiffSideFields"}) as unknown as TypedDocumentString<DiffSideFieldsFragment, unknown>;
export const DiffHunkFieldsFragmentDoc = new TypedDocumentString(`
    fragment DiffHunkFields on DiffHunk {
  fromLine
  fromCount
  toLine
  toCount
  lines {
    kind
    text
  }
}
    `, {"fragmentName":"DiffHunkFields"}) as unknown as TypedDocumentString<DiffHunkFieldsFragment, unknown>;
export const RunResultFieldsFragmentDoc = new TypedDocumentString(`
    fragment RunResultFields on PolicyRunResult {
  result
  rule
  data
  error
  labels
  explanation
  warnings {
    code
    message
  }
  execution {
    orchestrator {
      go
      database
      total
    }
    engine
    total
  }
  trace {
    ...TraceFields
  }
}
    fragment TypedValueFields on TypedValue {
  type
  value
}
fragment TraceFields on Trace {
  execution {
    label
    selector
    outcome
    result
    conditions {
      __typename
      ... on ComparisonCondition {
        selector
        property {
          path
          value
        }
        operator
        value {
          ...TypedValueFields
        }
        evaluationDetails {
          leftValue {
            ...TypedValueFields
          }
          rightValue {
            ...TypedValueFields
          }
          comparisonResult
        }
        result
      }
      ... on ReferenceCondition {
        selector
        ruleName
        referencedRuleOutcome
        propertyCheck {
          propertyName
          propertyValue
        }
        result
      }
    }
  }
}`, {"fragmentName":"RunResultFields"}) as unknown as TypedDocumentString<RunResultFieldsFragment, unknown>;
export const MembersDocument = new TypedDocumentString(`
    query Members($first: Int, $after: String, $query: String, $withTotalCount: Boolean = false) {
  members(first: $first, after: $after, query: $query) {
    edges {
      node {
        ...MemberFields
      }
    }
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
    totalCount @include(if: $withTotalCount)
  }
}
    fragment MemberFields on Member {
  id
  user {
    id
    email
    name
  }
  role
  createdAt
}`) as unknown as TypedDocumentString<MembersQuery, MembersQueryVariables>;
export const KeysDocument = new TypedDocumentString(`
    query Keys($first: Int, $after: String, $query: String, $withTotalCount: Boolean = false) {
  keys(first: $first, after: $after, query: $query) {
    edges {
      cursor
      node {
        ...APIKeyFields
      }
    }
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
    totalCount @include(if: $withTotalCount)
  }
}
    fragment APIKeyFields on APIKey {
  id
  name
  prefix
  scope
  owner {
    kind
    id
  }
  createdAt
  lastUsedAt
  expiresAt
  revokedAt
}`) as unknown as TypedDocumentString<KeysQuery, KeysQueryVariables>;
export const AddMemberDocument = new TypedDocumentString(`
    mutation AddMember($input: AddMemberInput!) {
  addMember(input: $input) {
    ...MemberFields
  }
}
    fragment MemberFields on Member {
  id
  user {
    id
    email
    name
  }
  role
  createdAt
}`) as unknown as TypedDocumentString<AddMemberMutation, AddMemberMutationVariables>;
export const ChangeMemberRoleDocument = new TypedDocumentString(`
    mutation ChangeMemberRole($input: ChangeMemberRoleInput!) {
  changeMemberRole(input: $input) {
    ...MemberFields
  }
}
    fragment MemberFields on Member {
  id
  user {
    id
    email
    name
  }
  role
  createdAt
}`) as unknown as TypedDocumentString<ChangeMemberRoleMutation, ChangeMemberRoleMutationVariables>;
export const RemoveMemberDocument = new TypedDocumentString(`
    mutation RemoveMember($input: RemoveMemberInput!) {
  removeMember(input: $input)
}
    `) as unknown as TypedDocumentString<RemoveMemberMutation, RemoveMemberMutationVariables>;
export const CreateKeyDocument = new TypedDocumentString(`
    mutation CreateKey($input: CreateKeyInput!) {
  createKey(input: $input) {
    key {
      ...APIKeyFields
    }
    secret
  }
}
    fragment APIKeyFields on APIKey {
  id
  name
  prefix
  scope
  owner {
    kind
    id
  }
  createdAt
  lastUsedAt
  expiresAt
  revokedAt
}`) as unknown as TypedDocumentString<CreateKeyMutation, CreateKeyMutationVariables>;
export const RevokeKeyDocument = new TypedDocumentString(`
    mutation RevokeKey($input: RevokeKeyInput!) {
  revokeKey(input: $input)
}
    `) as unknown as TypedDocumentString<RevokeKeyMutation, RevokeKeyMutationVariables>;
export const AuditEventsDocument = new TypedDocumentString(`
    query AuditEvents($first: Int, $after: String, $filter: AuditFilter, $withTotalCount: Boolean = false) {
  auditEvents(first: $first, after: $after, filter: $filter) {
    edges {
      cursor
      node {
        ...AuditEventFields
      }
    }
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
    totalCount @include(if: $withTotalCount)
  }
}
    fragment AuditEventFields on AuditEvent {
  id
  at
  action
  kind
  baseId
  recordId
  groupId
  actor {
    kind
    id
  }
  details
}`) as unknown as TypedDocumentString<AuditEventsQuery, AuditEventsQueryVariables>;
export const CheckRuleDocument = new TypedDocumentString(`
    query CheckRule($rule: String!, $schema: JSON) {
  checkRule(rule: $rule, schema: $schema) {
    tokens {
      kind
      range {
        ...SourceRangeFields
      }
    }
    diagnostics {
      ...DiagnosticFields
    }
  }
}
    fragment SourceRangeFields on SourceRange {
  start {
    line
    column
  }
  end {
    line
    column
  }
}
fragment DiagnosticFields on Diagnostic {
  severity
  code
  message
  range {
    ...SourceRangeFields
  }
  suggestions
}`) as unknown as TypedDocumentString<CheckRuleQuery, CheckRuleQueryVariables>;
export const CheckRuleDiagnosticsDocument = new TypedDocumentString(`
    query CheckRuleDiagnostics($rule: String!, $schema: JSON) {
  checkRule(rule: $rule, schema: $schema) {
    diagnostics {
      ...DiagnosticFields
    }
  }
}
    fragment SourceRangeFields on SourceRange {
  start {
    line
    column
  }
  end {
    line
    column
  }
}
fragment DiagnosticFields on Diagnostic {
  severity
  code
  message
  range {
    ...SourceRangeFields
  }
  suggestions
}`) as unknown as TypedDocumentString<CheckRuleDiagnosticsQuery, CheckRuleDiagnosticsQueryVariables>;
export const TestPolicyDocument = new TypedDocumentString(`
    mutation TestPolicy($input: TestPolicyInput!) {
  testPolicy(input: $input) {
    passed
    total
    failed
    results {
      name
      expected
      actual
      passed
      explanation
      error
    }
  }
}
    `) as unknown as TypedDocumentString<TestPolicyMutation, TestPolicyMutationVariables>;
export const TestFlowRecordDocument = new TypedDocumentString(`
    mutation TestFlowRecord($input: TestFlowRecordInput!) {
  testFlowRecord(input: $input) {
    passed
    total
    failed
    results {
      name
      expected
      actual
      passed
      explanation
      error
    }
  }
}
    `) as unknown as TypedDocumentString<TestFlowRecordMutation, TestFlowRecordMutationVariables>;
export const PolicyDecisionRecordsDocument = new TypedDocumentString(`
    query PolicyDecisionRecords($id: ID!) {
  policyDecisionRecords(id: $id) {
    ...DecisionRecordSettingsFields
  }
}
    fragment DecisionRecordSettingsFields on DecisionRecordSettings {
  baseId
  enabled
  sampleRate
  mask
}`) as unknown as TypedDocumentString<PolicyDecisionRecordsQuery, PolicyDecisionRecordsQueryVariables>;
export const FlowDecisionRecordsDocument = new TypedDocumentString(`
    query FlowDecisionRecords($id: ID!) {
  flowDecisionRecords(id: $id) {
    ...DecisionRecordSettingsFields
  }
}
    fragment DecisionRecordSettingsFields on DecisionRecordSettings {
  baseId
  enabled
  sampleRate
  mask
}`) as unknown as TypedDocumentString<FlowDecisionRecordsQuery, FlowDecisionRecordsQueryVariables>;
export const SetDecisionRecordsDocument = new TypedDocumentString(`
    mutation SetDecisionRecords($input: SetDecisionRecordsInput!) {
  setDecisionRecords(input: $input) {
    ...DecisionRecordSettingsFields
  }
}
    fragment DecisionRecordSettingsFields on DecisionRecordSettings {
  baseId
  enabled
  sampleRate
  mask
}`) as unknown as TypedDocumentString<SetDecisionRecordsMutation, SetDecisionRecordsMutationVariables>;
export const DecisionsDocument = new TypedDocumentString(`
    query Decisions($first: Int, $after: String, $filter: DecisionFilter, $withTotalCount: Boolean = false) {
  decisions(first: $first, after: $after, filter: $filter) {
    edges {
      cursor
      node {
        ...DecisionFields
      }
    }
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
    totalCount @include(if: $withTotalCount)
  }
}
    fragment DecisionFields on Decision {
  id
  kind
  baseId
  recordId
  version
  revision
  at
  result
  explanation
  durationNs
  actor {
    kind
    id
  }
  data
  policies {
    ref
    recordId
    revision
  }
}`) as unknown as TypedDocumentString<DecisionsQuery, DecisionsQueryVariables>;
export const DecisionDocument = new TypedDocumentString(`
    query Decision($id: ID!) {
  decision(id: $id) {
    ...DecisionFields
    recomputed {
      result
      explanation
      error
      trace {
        ...TraceFields
      }
      flow {
        ...FlowRunResultFields
      }
    }
    note
  }
}
    fragment DecisionFields on Decision {
  id
  kind
  baseId
  recordId
  version
  revision
  at
  result
  explanation
  durationNs
  actor {
    kind
    id
  }
  data
  policies {
    ref
    recordId
    revision
  }
}
fragment FlowRunResultFields on FlowRunResult {
  nodeId
  nodeName
  result
  executionPath
  finalOutcome
  outcome
  errors
  nodeResponses {
    nodeId
    nodeType
    response {
      result
      rule
      data
      error
      labels
      explanation
      warnings {
        code
        message
      }
      trace {
        ...TraceFields
      }
    }
    execution {
      database
      engine
      total
    }
  }
}
fragment TypedValueFields on TypedValue {
  type
  value
}
fragment TraceFields on Trace {
  execution {
    label
    selector
    outcome
    result
    conditions {
      __typename
      ... on ComparisonCondition {
        selector
        property {
          path
          value
        }
        operator
        value {
          ...TypedValueFields
        }
        evaluationDetails {
          leftValue {
            ...TypedValueFields
          }
          rightValue {
            ...TypedValueFields
          }
          comparisonResult
        }
        result
      }
      ... on ReferenceCondition {
        selector
        ruleName
        referencedRuleOutcome
        propertyCheck {
          propertyName
          propertyValue
        }
        result
      }
    }
  }
}`) as unknown as TypedDocumentString<DecisionQuery, DecisionQueryVariables>;
export const ReplayPolicyDocument = new TypedDocumentString(`
    mutation ReplayPolicy($input: ReplayPolicyInput!) {
  replayPolicy(input: $input) {
    ...ReplayFields
  }
}
    fragment ReplayFields on Replay {
  compared
  changed
  unchanged
  errors
  items {
    decisionId
    at
    changed
    before {
      result
      explanation
      error
    }
    after {
      result
      explanation
      error
    }
  }
}`) as unknown as TypedDocumentString<ReplayPolicyMutation, ReplayPolicyMutationVariables>;
export const ReplayFlowDocument = new TypedDocumentString(`
    mutation ReplayFlow($input: ReplayFlowInput!) {
  replayFlow(input: $input) {
    ...ReplayFields
  }
}
    fragment ReplayFields on Replay {
  compared
  changed
  unchanged
  errors
  items {
    decisionId
    at
    changed
    before {
      result
      explanation
      error
    }
    after {
      result
      explanation
      error
    }
  }
}`) as unknown as TypedDocumentString<ReplayFlowMutation, ReplayFlowMutationVariables>;
export const FlowDocument = new TypedDocumentString(`
    query Flow($id: ID!) {
  flow(id: $id) {
    ...FlowFields
  }
}
    fragment FlowFields on Flow {
  id
  baseId
  name
  description
  definition
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}`) as unknown as TypedDocumentString<FlowQuery, FlowQueryVariables>;
export const FlowValidationDocument = new TypedDocumentString(`
    query FlowValidation($id: ID!) {
  flowValidation(id: $id) {
    errors
    warnings
  }
}
    `) as unknown as TypedDocumentString<FlowValidationQuery, FlowValidationQueryVariables>;
export const FlowVersionsDocument = new TypedDocumentString(`
    query FlowVersions($id: ID!, $first: Int, $after: String) {
  flowVersions(id: $id, first: $first, after: $after) {
    baseId
    draft {
      ...FlowFields
    }
    versions {
      ...FlowFields
    }
    nextCursor
  }
}
    fragment FlowFields on Flow {
  id
  baseId
  name
  description
  definition
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}`) as unknown as TypedDocumentString<FlowVersionsQuery, FlowVersionsQueryVariables>;
export const FlowsDocument = new TypedDocumentString(`
    query Flows($first: Int, $after: String, $query: String, $groupId: ID, $notInGroupId: ID, $withTotalCount: Boolean = false) {
  flows(
    first: $first
    after: $after
    query: $query
    groupId: $groupId
    notInGroupId: $notInGroupId
  ) {
    edges {
      cursor
      node {
        ...FlowSummaryFields
      }
    }
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
    totalCount @include(if: $withTotalCount)
  }
}
    fragment FlowSummaryFields on FlowSummary {
  id
  baseId
  name
  owner {
    kind
    id
  }
  latestVersion
  latestVersionId
  draftId
  hasDraft
  updatedAt
}`) as unknown as TypedDocumentString<FlowsQuery, FlowsQueryVariables>;
export const CreateFlowDocument = new TypedDocumentString(`
    mutation CreateFlow($input: CreateFlowInput!) {
  createFlow(input: $input) {
    ...SavedFlowFields
  }
}
    fragment FlowFields on Flow {
  id
  baseId
  name
  description
  definition
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}
fragment SavedFlowFields on SavedFlow {
  flow {
    ...FlowFields
  }
  validation {
    errors
    warnings
  }
}`) as unknown as TypedDocumentString<CreateFlowMutation, CreateFlowMutationVariables>;
export const UpdateFlowDraftDocument = new TypedDocumentString(`
    mutation UpdateFlowDraft($input: UpdateFlowDraftInput!) {
  updateFlowDraft(input: $input) {
    ...SavedFlowFields
  }
}
    fragment FlowFields on Flow {
  id
  baseId
  name
  description
  definition
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}
fragment SavedFlowFields on SavedFlow {
  flow {
    ...FlowFields
  }
  validation {
    errors
    warnings
  }
}`) as unknown as TypedDocumentString<UpdateFlowDraftMutation, UpdateFlowDraftMutationVariables>;
export const PublishFlowDocument = new TypedDocumentString(`
    mutation PublishFlow($input: PublishFlowInput!) {
  publishFlow(input: $input) {
    ...FlowFields
  }
}
    fragment FlowFields on Flow {
  id
  baseId
  name
  description
  definition
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}`) as unknown as TypedDocumentString<PublishFlowMutation, PublishFlowMutationVariables>;
export const CreateFlowDraftFromVersionDocument = new TypedDocumentString(`
    mutation CreateFlowDraftFromVersion($input: CreateFlowDraftFromVersionInput!) {
  createFlowDraftFromVersion(input: $input) {
    ...FlowFields
  }
}
    fragment FlowFields on Flow {
  id
  baseId
  name
  description
  definition
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}`) as unknown as TypedDocumentString<CreateFlowDraftFromVersionMutation, CreateFlowDraftFromVersionMutationVariables>;
export const DeleteFlowDocument = new TypedDocumentString(`
    mutation DeleteFlow($input: DeleteFlowInput!) {
  deleteFlow(input: $input)
}
    `) as unknown as TypedDocumentString<DeleteFlowMutation, DeleteFlowMutationVariables>;
export const RunFlowDocument = new TypedDocumentString(`
    mutation RunFlow($input: RunFlowInput!) {
  runFlow(input: $input) {
    ...FlowRunResultFields
  }
}
    fragment FlowRunResultFields on FlowRunResult {
  nodeId
  nodeName
  result
  executionPath
  finalOutcome
  outcome
  errors
  nodeResponses {
    nodeId
    nodeType
    response {
      result
      rule
      data
      error
      labels
      explanation
      warnings {
        code
        message
      }
      trace {
        ...TraceFields
      }
    }
    execution {
      database
      engine
      total
    }
  }
}
fragment TypedValueFields on TypedValue {
  type
  value
}
fragment TraceFields on Trace {
  execution {
    label
    selector
    outcome
    result
    conditions {
      __typename
      ... on ComparisonCondition {
        selector
        property {
          path
          value
        }
        operator
        value {
          ...TypedValueFields
        }
        evaluationDetails {
          leftValue {
            ...TypedValueFields
          }
          rightValue {
            ...TypedValueFields
          }
          comparisonResult
        }
        result
      }
      ... on ReferenceCondition {
        selector
        ruleName
        referencedRuleOutcome
        propertyCheck {
          propertyName
          propertyValue
        }
        result
      }
    }
  }
}`) as unknown as TypedDocumentString<RunFlowMutation, RunFlowMutationVariables>;
export const RunFlowVersionDocument = new TypedDocumentString(`
    mutation RunFlowVersion($input: RunFlowVersionInput!) {
  runFlowVersion(input: $input) {
    ...FlowRunResultFields
  }
}
    fragment FlowRunResultFields on FlowRunResult {
  nodeId
  nodeName
  result
  executionPath
  finalOutcome
  outcome
  errors
  nodeResponses {
    nodeId
    nodeType
    response {
      result
      rule
      data
      error
      labels
      explanation
      warnings {
        code
        message
      }
      trace {
        ...TraceFields
      }
    }
    execution {
      database
      engine
      total
    }
  }
}
fragment TypedValueFields on TypedValue {
  type
  value
}
fragment TraceFields on Trace {
  execution {
    label
    selector
    outcome
    result
    conditions {
      __typename
      ... on ComparisonCondition {
        selector
        property {
          path
          value
        }
        operator
        value {
          ...TypedValueFields
        }
        evaluationDetails {
          leftValue {
            ...TypedValueFields
          }
          rightValue {
            ...TypedValueFields
          }
          comparisonResult
        }
        result
      }
      ... on ReferenceCondition {
        selector
        ruleName
        referencedRuleOutcome
        propertyCheck {
          propertyName
          propertyValue
        }
        result
      }
    }
  }
}`) as unknown as TypedDocumentString<RunFlowVersionMutation, RunFlowVersionMutationVariables>;
export const RunFlowBatchDocument = new TypedDocumentString(`
    mutation RunFlowBatch($input: RunFlowBatchInput!) {
  runFlowBatch(input: $input) {
    results {
      ...FlowRunResultFields
    }
    execution {
      total
    }
  }
}
    fragment FlowRunResultFields on FlowRunResult {
  nodeId
  nodeName
  result
  executionPath
  finalOutcome
  outcome
  errors
  nodeResponses {
    nodeId
    nodeType
    response {
      result
      rule
      data
      error
      labels
      explanation
      warnings {
        code
        message
      }
      trace {
        ...TraceFields
      }
    }
    execution {
      database
      engine
      total
    }
  }
}
fragment TypedValueFields on TypedValue {
  type
  value
}
fragment TraceFields on Trace {
  execution {
    label
    selector
    outcome
    result
    conditions {
      __typename
      ... on ComparisonCondition {
        selector
        property {
          path
          value
        }
        operator
        value {
          ...TypedValueFields
        }
        evaluationDetails {
          leftValue {
            ...TypedValueFields
          }
          rightValue {
            ...TypedValueFields
          }
          comparisonResult
        }
        result
      }
      ... on ReferenceCondition {
        selector
        ruleName
        referencedRuleOutcome
        propertyCheck {
          propertyName
          propertyValue
        }
        result
      }
    }
  }
}`) as unknown as TypedDocumentString<RunFlowBatchMutation, RunFlowBatchMutationVariables>;
export const RunFlowVersionBatchDocument = new TypedDocumentString(`
    mutation RunFlowVersionBatch($input: RunFlowVersionBatchInput!) {
  runFlowVersionBatch(input: $input) {
    results {
      ...FlowRunResultFields
    }
    execution {
      total
    }
  }
}
    fragment FlowRunResultFields on FlowRunResult {
  nodeId
  nodeName
  result
  executionPath
  finalOutcome
  outcome
  errors
  nodeResponses {
    nodeId
    nodeType
    response {
      result
      rule
      data
      error
      labels
      explanation
      warnings {
        code
        message
      }
      trace {
        ...TraceFields
      }
    }
    execution {
      database
      engine
      total
    }
  }
}
fragment TypedValueFields on TypedValue {
  type
  value
}
fragment TraceFields on Trace {
  execution {
    label
    selector
    outcome
    result
    conditions {
      __typename
      ... on ComparisonCondition {
        selector
        property {
          path
          value
        }
        operator
        value {
          ...TypedValueFields
        }
        evaluationDetails {
          leftValue {
            ...TypedValueFields
          }
          rightValue {
            ...TypedValueFields
          }
          comparisonResult
        }
        result
      }
      ... on ReferenceCondition {
        selector
        ruleName
        referencedRuleOutcome
        propertyCheck {
          propertyName
          propertyValue
        }
        result
      }
    }
  }
}`) as unknown as TypedDocumentString<RunFlowVersionBatchMutation, RunFlowVersionBatchMutationVariables>;
export const TestFlowDocument = new TypedDocumentString(`
    mutation TestFlow($input: TestFlowInput!) {
  testFlow(input: $input) {
    ...FlowRunResultFields
  }
}
    fragment FlowRunResultFields on FlowRunResult {
  nodeId
  nodeName
  result
  executionPath
  finalOutcome
  outcome
  errors
  nodeResponses {
    nodeId
    nodeType
    response {
      result
      rule
      data
      error
      labels
      explanation
      warnings {
        code
        message
      }
      trace {
        ...TraceFields
      }
    }
    execution {
      database
      engine
      total
    }
  }
}
fragment TypedValueFields on TypedValue {
  type
  value
}
fragment TraceFields on Trace {
  execution {
    label
    selector
    outcome
    result
    conditions {
      __typename
      ... on ComparisonCondition {
        selector
        property {
          path
          value
        }
        operator
        value {
          ...TypedValueFields
        }
        evaluationDetails {
          leftValue {
            ...TypedValueFields
          }
          rightValue {
            ...TypedValueFields
          }
          comparisonResult
        }
        result
      }
      ... on ReferenceCondition {
        selector
        ruleName
        referencedRuleOutcome
        propertyCheck {
          propertyName
          propertyValue
        }
        result
      }
    }
  }
}`) as unknown as TypedDocumentString<TestFlowMutation, TestFlowMutationVariables>;
export const FlowDiffDocument = new TypedDocumentString(`
    query FlowDiff($id: ID!, $otherId: ID!) {
  flowDiff(id: $id, otherId: $otherId) {
    baseId
    from {
      ...DiffSideFields
    }
    to {
      ...DiffSideFields
    }
    name {
      before
      after
    }
    description {
      before
      after
    }
    start {
      before
      after
    }
    nodes {
      added
      removed
      changed {
        id
        before
        after
      }
    }
    edges {
      added {
        from
        branch
        to
      }
      removed {
        from
        branch
        to
      }
    }
    tests {
      added {
        name
        data
        expect
      }
      removed {
        name
        data
        expect
      }
      changed {
        name
        before {
          name
          data
          expect
        }
        after {
          name
          data
          expect
        }
      }
    }
  }
}
    fragment DiffSideFields on DiffSide {
  id
  status
  version
}`) as unknown as TypedDocumentString<FlowDiffQuery, FlowDiffQueryVariables>;
export const RollbackFlowDocument = new TypedDocumentString(`
    mutation RollbackFlow($input: RollbackFlowInput!) {
  rollbackFlow(input: $input) {
    ...FlowFields
  }
}
    fragment FlowFields on Flow {
  id
  baseId
  name
  description
  definition
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}`) as unknown as TypedDocumentString<RollbackFlowMutation, RollbackFlowMutationVariables>;
export const GroupDocument = new TypedDocumentString(`
    query Group($id: ID!) {
  group(id: $id) {
    ...GroupFields
  }
}
    fragment GroupFields on Group {
  id
  name
  description
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<GroupQuery, GroupQueryVariables>;
export const GroupPoliciesDocument = new TypedDocumentString(`
    query GroupPolicies($id: ID!, $first: Int, $after: String, $query: String, $withTotalCount: Boolean = false) {
  group(id: $id) {
    id
    policies(first: $first, after: $after, query: $query) {
      edges {
        cursor
        node {
          ...PolicySummaryFields
        }
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      totalCount @include(if: $withTotalCount)
    }
  }
}
    fragment PolicySummaryFields on PolicySummary {
  id
  baseId
  name
  owner {
    kind
    id
  }
  latestVersion
  latestVersionId
  draftId
  hasDraft
  updatedAt
}`) as unknown as TypedDocumentString<GroupPoliciesQuery, GroupPoliciesQueryVariables>;
export const GroupFlowsDocument = new TypedDocumentString(`
    query GroupFlows($id: ID!, $first: Int, $after: String, $query: String, $withTotalCount: Boolean = false) {
  group(id: $id) {
    id
    flows(first: $first, after: $after, query: $query) {
      edges {
        cursor
        node {
          ...FlowSummaryFields
        }
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      totalCount @include(if: $withTotalCount)
    }
  }
}
    fragment FlowSummaryFields on FlowSummary {
  id
  baseId
  name
  owner {
    kind
    id
  }
  latestVersion
  latestVersionId
  draftId
  hasDraft
  updatedAt
}`) as unknown as TypedDocumentString<GroupFlowsQuery, GroupFlowsQueryVariables>;
export const GroupsDocument = new TypedDocumentString(`
    query Groups($first: Int, $after: String, $query: String, $withTotalCount: Boolean = false) {
  groups(first: $first, after: $after, query: $query) {
    edges {
      cursor
      node {
        ...GroupFields
      }
    }
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
    totalCount @include(if: $withTotalCount)
  }
}
    fragment GroupFields on Group {
  id
  name
  description
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<GroupsQuery, GroupsQueryVariables>;
export const GroupMembershipDocument = new TypedDocumentString(`
    query GroupMembership($id: ID!, $kind: GroupMemberKind!, $baseId: ID!) {
  group(id: $id) {
    id
    membership(kind: $kind, baseId: $baseId) {
      ...GroupMemberFields
    }
  }
}
    fragment GroupMemberFields on GroupMember {
  id
  groupId
  kind
  baseId
  createdAt
}`) as unknown as TypedDocumentString<GroupMembershipQuery, GroupMembershipQueryVariables>;
export const CreateGroupDocument = new TypedDocumentString(`
    mutation CreateGroup($input: CreateGroupInput!) {
  createGroup(input: $input) {
    ...GroupFields
  }
}
    fragment GroupFields on Group {
  id
  name
  description
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<CreateGroupMutation, CreateGroupMutationVariables>;
export const UpdateGroupDocument = new TypedDocumentString(`
    mutation UpdateGroup($input: UpdateGroupInput!) {
  updateGroup(input: $input) {
    ...GroupFields
  }
}
    fragment GroupFields on Group {
  id
  name
  description
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<UpdateGroupMutation, UpdateGroupMutationVariables>;
export const DeleteGroupDocument = new TypedDocumentString(`
    mutation DeleteGroup($input: DeleteGroupInput!) {
  deleteGroup(input: $input)
}
    `) as unknown as TypedDocumentString<DeleteGroupMutation, DeleteGroupMutationVariables>;
export const AddGroupMemberDocument = new TypedDocumentString(`
    mutation AddGroupMember($input: AddGroupMemberInput!) {
  addGroupMember(input: $input) {
    ...GroupMemberFields
  }
}
    fragment GroupMemberFields on GroupMember {
  id
  groupId
  kind
  baseId
  createdAt
}`) as unknown as TypedDocumentString<AddGroupMemberMutation, AddGroupMemberMutationVariables>;
export const RemoveGroupMemberDocument = new TypedDocumentString(`
    mutation RemoveGroupMember($input: RemoveGroupMemberInput!) {
  removeGroupMember(input: $input)
}
    `) as unknown as TypedDocumentString<RemoveGroupMemberMutation, RemoveGroupMemberMutationVariables>;
export const NodeDocument = new TypedDocumentString(`
    query Node($id: ID!) {
  node(id: $id) {
    __typename
    id
    ... on Policy {
      ...PolicyFields
    }
    ... on Flow {
      baseId
      name
      description
      definition
      flowTests: tests {
        name
        data
        expect
      }
      status
      version
      owner {
        kind
        id
      }
      createdBy
      createdAt
      updatedAt
      publishedAt
      revision
    }
    ... on PolicySummary {
      ...PolicySummaryFields
    }
    ... on FlowSummary {
      ...FlowSummaryFields
    }
    ... on Group {
      ...GroupFields
    }
    ... on GroupMember {
      ...GroupMemberFields
    }
    ... on AuditEvent {
      at
      action
      eventKind: kind
      eventBaseId: baseId
      recordId
      eventGroupId: groupId
      actor {
        kind
        id
      }
      details
    }
    ... on Organization {
      name
      createdAt
    }
    ... on Member {
      ...MemberFields
    }
    ... on User {
      email
      name
    }
    ... on APIKey {
      ...APIKeyFields
    }
  }
}
    fragment MemberFields on Member {
  id
  user {
    id
    email
    name
  }
  role
  createdAt
}
fragment APIKeyFields on APIKey {
  id
  name
  prefix
  scope
  owner {
    kind
    id
  }
  createdAt
  lastUsedAt
  expiresAt
  revokedAt
}
fragment FlowSummaryFields on FlowSummary {
  id
  baseId
  name
  owner {
    kind
    id
  }
  latestVersion
  latestVersionId
  draftId
  hasDraft
  updatedAt
}
fragment GroupFields on Group {
  id
  name
  description
  createdAt
  updatedAt
}
fragment GroupMemberFields on GroupMember {
  id
  groupId
  kind
  baseId
  createdAt
}
fragment PolicyFields on Policy {
  id
  baseId
  name
  description
  rule
  schema
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}
fragment PolicySummaryFields on PolicySummary {
  id
  baseId
  name
  owner {
    kind
    id
  }
  latestVersion
  latestVersionId
  draftId
  hasDraft
  updatedAt
}`) as unknown as TypedDocumentString<NodeQuery, NodeQueryVariables>;
export const PolicyDocument = new TypedDocumentString(`
    query Policy($id: ID!) {
  policy(id: $id) {
    ...PolicyFields
  }
}
    fragment PolicyFields on Policy {
  id
  baseId
  name
  description
  rule
  schema
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}`) as unknown as TypedDocumentString<PolicyQuery, PolicyQueryVariables>;
export const PolicyVersionsDocument = new TypedDocumentString(`
    query PolicyVersions($id: ID!, $first: Int, $after: String) {
  policyVersions(id: $id, first: $first, after: $after) {
    baseId
    draft {
      ...PolicyFields
    }
    versions {
      ...PolicyFields
    }
    nextCursor
  }
}
    fragment PolicyFields on Policy {
  id
  baseId
  name
  description
  rule
  schema
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}`) as unknown as TypedDocumentString<PolicyVersionsQuery, PolicyVersionsQueryVariables>;
export const PoliciesDocument = new TypedDocumentString(`
    query Policies($first: Int, $after: String, $query: String, $groupId: ID, $notInGroupId: ID, $withTotalCount: Boolean = false) {
  policies(
    first: $first
    after: $after
    query: $query
    groupId: $groupId
    notInGroupId: $notInGroupId
  ) {
    edges {
      cursor
      node {
        ...PolicySummaryFields
      }
    }
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
    totalCount @include(if: $withTotalCount)
  }
}
    fragment PolicySummaryFields on PolicySummary {
  id
  baseId
  name
  owner {
    kind
    id
  }
  latestVersion
  latestVersionId
  draftId
  hasDraft
  updatedAt
}`) as unknown as TypedDocumentString<PoliciesQuery, PoliciesQueryVariables>;
export const CreatePolicyDocument = new TypedDocumentString(`
    mutation CreatePolicy($input: CreatePolicyInput!) {
  createPolicy(input: $input) {
    ...SavedPolicyFields
  }
}
    fragment PolicyFields on Policy {
  id
  baseId
  name
  description
  rule
  schema
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}
fragment SavedPolicyFields on SavedPolicy {
  policy {
    ...PolicyFields
  }
  validation {
    errors
  }
}`) as unknown as TypedDocumentString<CreatePolicyMutation, CreatePolicyMutationVariables>;
export const UpdatePolicyDraftDocument = new TypedDocumentString(`
    mutation UpdatePolicyDraft($input: UpdatePolicyDraftInput!) {
  updatePolicyDraft(input: $input) {
    ...SavedPolicyFields
  }
}
    fragment PolicyFields on Policy {
  id
  baseId
  name
  description
  rule
  schema
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}
fragment SavedPolicyFields on SavedPolicy {
  policy {
    ...PolicyFields
  }
  validation {
    errors
  }
}`) as unknown as TypedDocumentString<UpdatePolicyDraftMutation, UpdatePolicyDraftMutationVariables>;
export const PublishPolicyDocument = new TypedDocumentString(`
    mutation PublishPolicy($input: PublishPolicyInput!) {
  publishPolicy(input: $input) {
    ...PolicyFields
  }
}
    fragment PolicyFields on Policy {
  id
  baseId
  name
  description
  rule
  schema
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}`) as unknown as TypedDocumentString<PublishPolicyMutation, PublishPolicyMutationVariables>;
export const CreatePolicyDraftFromVersionDocument = new TypedDocumentString(`
    mutation CreatePolicyDraftFromVersion($input: CreatePolicyDraftFromVersionInput!) {
  createPolicyDraftFromVersion(input: $input) {
    ...PolicyFields
  }
}
    fragment PolicyFields on Policy {
  id
  baseId
  name
  description
  rule
  schema
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}`) as unknown as TypedDocumentString<CreatePolicyDraftFromVersionMutation, CreatePolicyDraftFromVersionMutationVariables>;
export const DeletePolicyDocument = new TypedDocumentString(`
    mutation DeletePolicy($input: DeletePolicyInput!) {
  deletePolicy(input: $input)
}
    `) as unknown as TypedDocumentString<DeletePolicyMutation, DeletePolicyMutationVariables>;
export const RunPolicyDocument = new TypedDocumentString(`
    mutation RunPolicy($input: RunPolicyInput!) {
  runPolicy(input: $input) {
    ...RunResultFields
  }
}
    fragment TypedValueFields on TypedValue {
  type
  value
}
fragment RunResultFields on PolicyRunResult {
  result
  rule
  data
  error
  labels
  explanation
  warnings {
    code
    message
  }
  execution {
    orchestrator {
      go
      database
      total
    }
    engine
    total
  }
  trace {
    ...TraceFields
  }
}
fragment TraceFields on Trace {
  execution {
    label
    selector
    outcome
    result
    conditions {
      __typename
      ... on ComparisonCondition {
        selector
        property {
          path
          value
        }
        operator
        value {
          ...TypedValueFields
        }
        evaluationDetails {
          leftValue {
            ...TypedValueFields
          }
          rightValue {
            ...TypedValueFields
          }
          comparisonResult
        }
        result
      }
      ... on ReferenceCondition {
        selector
        ruleName
        referencedRuleOutcome
        propertyCheck {
          propertyName
          propertyValue
        }
        result
      }
    }
  }
}`) as unknown as TypedDocumentString<RunPolicyMutation, RunPolicyMutationVariables>;
export const RunPolicyVersionDocument = new TypedDocumentString(`
    mutation RunPolicyVersion($input: RunPolicyVersionInput!) {
  runPolicyVersion(input: $input) {
    ...RunResultFields
  }
}
    fragment TypedValueFields on TypedValue {
  type
  value
}
fragment RunResultFields on PolicyRunResult {
  result
  rule
  data
  error
  labels
  explanation
  warnings {
    code
    message
  }
  execution {
    orchestrator {
      go
      database
      total
    }
    engine
    total
  }
  trace {
    ...TraceFields
  }
}
fragment TraceFields on Trace {
  execution {
    label
    selector
    outcome
    result
    conditions {
      __typename
      ... on ComparisonCondition {
        selector
        property {
          path
          value
        }
        operator
        value {
          ...TypedValueFields
        }
        evaluationDetails {
          leftValue {
            ...TypedValueFields
          }
          rightValue {
            ...TypedValueFields
          }
          comparisonResult
        }
        result
      }
      ... on ReferenceCondition {
        selector
        ruleName
        referencedRuleOutcome
        propertyCheck {
          propertyName
          propertyValue
        }
        result
      }
    }
  }
}`) as unknown as TypedDocumentString<RunPolicyVersionMutation, RunPolicyVersionMutationVariables>;
export const RunPolicyBatchDocument = new TypedDocumentString(`
    mutation RunPolicyBatch($input: RunPolicyBatchInput!) {
  runPolicyBatch(input: $input) {
    results {
      ...RunResultFields
    }
    execution {
      orchestrator {
        go
        database
        total
      }
      engine
      total
    }
  }
}
    fragment TypedValueFields on TypedValue {
  type
  value
}
fragment RunResultFields on PolicyRunResult {
  result
  rule
  data
  error
  labels
  explanation
  warnings {
    code
    message
  }
  execution {
    orchestrator {
      go
      database
      total
    }
    engine
    total
  }
  trace {
    ...TraceFields
  }
}
fragment TraceFields on Trace {
  execution {
    label
    selector
    outcome
    result
    conditions {
      __typename
      ... on ComparisonCondition {
        selector
        property {
          path
          value
        }
        operator
        value {
          ...TypedValueFields
        }
        evaluationDetails {
          leftValue {
            ...TypedValueFields
          }
          rightValue {
            ...TypedValueFields
          }
          comparisonResult
        }
        result
      }
      ... on ReferenceCondition {
        selector
        ruleName
        referencedRuleOutcome
        propertyCheck {
          propertyName
          propertyValue
        }
        result
      }
    }
  }
}`) as unknown as TypedDocumentString<RunPolicyBatchMutation, RunPolicyBatchMutationVariables>;
export const RunPolicyVersionBatchDocument = new TypedDocumentString(`
    mutation RunPolicyVersionBatch($input: RunPolicyVersionBatchInput!) {
  runPolicyVersionBatch(input: $input) {
    results {
      ...RunResultFields
    }
    execution {
      orchestrator {
        go
        database
        total
      }
      engine
      total
    }
  }
}
    fragment TypedValueFields on TypedValue {
  type
  value
}
fragment RunResultFields on PolicyRunResult {
  result
  rule
  data
  error
  labels
  explanation
  warnings {
    code
    message
  }
  execution {
    orchestrator {
      go
      database
      total
    }
    engine
    total
  }
  trace {
    ...TraceFields
  }
}
fragment TraceFields on Trace {
  execution {
    label
    selector
    outcome
    result
    conditions {
      __typename
      ... on ComparisonCondition {
        selector
        property {
          path
          value
        }
        operator
        value {
          ...TypedValueFields
        }
        evaluationDetails {
          leftValue {
            ...TypedValueFields
          }
          rightValue {
            ...TypedValueFields
          }
          comparisonResult
        }
        result
      }
      ... on ReferenceCondition {
        selector
        ruleName
        referencedRuleOutcome
        propertyCheck {
          propertyName
          propertyValue
        }
        result
      }
    }
  }
}`) as unknown as TypedDocumentString<RunPolicyVersionBatchMutation, RunPolicyVersionBatchMutationVariables>;
export const PolicyDiffDocument = new TypedDocumentString(`
    query PolicyDiff($id: ID!, $otherId: ID!) {
  policyDiff(id: $id, otherId: $otherId) {
    baseId
    from {
      ...DiffSideFields
    }
    to {
      ...DiffSideFields
    }
    name {
      before
      after
    }
    description {
      before
      after
    }
    rule {
      ...DiffHunkFields
    }
    tests {
      added {
        name
        data
        expect
      }
      removed {
        name
        data
        expect
      }
      changed {
        name
        before {
          name
          data
          expect
        }
        after {
          name
          data
          expect
        }
      }
    }
    schema {
      path
      change
      before
      after
    }
  }
}
    fragment DiffSideFields on DiffSide {
  id
  status
  version
}
fragment DiffHunkFields on DiffHunk {
  fromLine
  fromCount
  toLine
  toCount
  lines {
    kind
    text
  }
}`) as unknown as TypedDocumentString<PolicyDiffQuery, PolicyDiffQueryVariables>;
export const RollbackPolicyDocument = new TypedDocumentString(`
    mutation RollbackPolicy($input: RollbackPolicyInput!) {
  rollbackPolicy(input: $input) {
    ...PolicyFields
  }
}
    fragment PolicyFields on Policy {
  id
  baseId
  name
  description
  rule
  schema
  tests {
    name
    data
    expect
  }
  status
  version
  owner {
    kind
    id
  }
  createdBy
  createdAt
  updatedAt
  publishedAt
  revision
}`) as unknown as TypedDocumentString<RollbackPolicyMutation, RollbackPolicyMutationVariables>;
export const RunRuleDocument = new TypedDocumentString(`
    mutation RunRule($input: RunRuleInput!) {
  runRule(input: $input) {
    ...RunResultFields
  }
}
    fragment TypedValueFields on TypedValue {
  type
  value
}
fragment RunResultFields on PolicyRunResult {
  result
  rule
  data
  error
  labels
  explanation
  warnings {
    code
    message
  }
  execution {
    orchestrator {
      go
      database
      total
    }
    engine
    total
  }
  trace {
    ...TraceFields
  }
}
fragment TraceFields on Trace {
  execution {
    label
    selector
    outcome
    result
    conditions {
      __typename
      ... on ComparisonCondition {
        selector
        property {
          path
          value
        }
        operator
        value {
          ...TypedValueFields
        }
        evaluationDetails {
          leftValue {
            ...TypedValueFields
          }
          rightValue {
            ...TypedValueFields
          }
          comparisonResult
        }
        result
      }
      ... on ReferenceCondition {
        selector
        ruleName
        referencedRuleOutcome
        propertyCheck {
          propertyName
          propertyValue
        }
        result
      }
    }
  }
}`) as unknown as TypedDocumentString<RunRuleMutation, RunRuleMutationVariables>;
export const ViewerDocument = new TypedDocumentString(`
    query Viewer {
  viewer {
    user {
      id
      email
      name
    }
    organization {
      id
      name
    }
    role
    key {
      id
      name
      prefix
      scope
      owner {
        kind
        id
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ViewerQuery, ViewerQueryVariables>;