/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
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

/** Whether a key or a resource belongs to a user or to an organization. */
export type OwnerKind =
  /** Owned by the organization. */
  | 'ORGANIZATION'
  /** Owned by a user. */
  | 'USER';

/** A stored test to save with a draft. */
export type PolicyTestInput = {
  /** The data to run the record on: a JSON object. */
  data: unknown;
  /** The result the golden rule must give. */
  expect: boolean;
  /** The test's name, unique within the record. */
  name: string;
};

/** Whether a record is a draft or a published version. */
export type RecordStatus =
  /** The one editable record of a policy. */
  | 'DRAFT'
  /** A numbered, immutable version. */
  | 'PUBLISHED';

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

/** Changes to a draft. An absent field stays as it is. */
export type UpdatePolicyInput = {
  /**
   * The new description. Null leaves it as it is; the empty string clears
   * it.
   */
  description?: string | null | undefined;
  /** The new name; not blank. Null leaves it as it is. */
  name?: string | null | undefined;
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

export type PolicyFieldsFragment = { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } };

export type SavedPolicyFieldsFragment = { policy: { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } }, validation: { errors: Array<string> } };

export type PolicyQueryVariables = Exact<{
  id: string;
}>;


export type PolicyQuery = { policy: { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } } };

export type PolicyVersionsQueryVariables = Exact<{
  id: string;
}>;


export type PolicyVersionsQuery = { policyVersions: { baseId: string, draft: { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } } | null, versions: Array<{ id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } }> } };

export type PoliciesQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  query?: string | null | undefined;
  groupId?: string | null | undefined;
}>;


export type PoliciesQuery = { policies: { edges: Array<{ cursor: string, node: { baseId: string, name: string, latestVersion: number | null, latestVersionId: string | null, draftId: string | null, hasDraft: boolean, updatedAt: string, owner: { kind: OwnerKind, id: string } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type CreatePolicyMutationVariables = Exact<{
  input: CreatePolicyInput;
}>;


export type CreatePolicyMutation = { createPolicy: { policy: { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } }, validation: { errors: Array<string> } } };

export type UpdatePolicyDraftMutationVariables = Exact<{
  id: string;
  input: UpdatePolicyInput;
}>;


export type UpdatePolicyDraftMutation = { updatePolicyDraft: { policy: { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } }, validation: { errors: Array<string> } } };

export type PublishPolicyMutationVariables = Exact<{
  id: string;
  input?: UpdatePolicyInput | null | undefined;
}>;


export type PublishPolicyMutation = { publishPolicy: { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } } };

export type CreatePolicyDraftFromVersionMutationVariables = Exact<{
  id: string;
  replace?: boolean | null | undefined;
}>;


export type CreatePolicyDraftFromVersionMutation = { createPolicyDraftFromVersion: { id: string, baseId: string, name: string, description: string, rule: string, schema: unknown, status: RecordStatus, version: number | null, createdBy: string, createdAt: string, updatedAt: string, publishedAt: string | null, revision: number, tests: Array<{ name: string, data: unknown, expect: boolean }>, owner: { kind: OwnerKind, id: string } } };

export type DeletePolicyMutationVariables = Exact<{
  id: string;
}>;


export type DeletePolicyMutation = { deletePolicy: boolean };

export type RunPolicyMutationVariables = Exact<{
  baseId: string;
  data: unknown;
}>;


export type RunPolicyMutation = { runPolicy: { result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, execution: { engine: string, total: string, orchestrator: { go: string, database: string, total: string } }, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
          | { __typename: 'ComparisonCondition', selector: string, operator: string, result: boolean, property: { path: string, value: unknown }, value: { type: string, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: string, value: unknown }, rightValue: { type: string, value: unknown } } | null }
          | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
        > }> } } };

export type RunPolicyVersionMutationVariables = Exact<{
  policyId: string;
  data: unknown;
}>;


export type RunPolicyVersionMutation = { runPolicyVersion: { result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, execution: { engine: string, total: string, orchestrator: { go: string, database: string, total: string } }, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
          | { __typename: 'ComparisonCondition', selector: string, operator: string, result: boolean, property: { path: string, value: unknown }, value: { type: string, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: string, value: unknown }, rightValue: { type: string, value: unknown } } | null }
          | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
        > }> } } };

export type TypedValueFieldsFragment = { type: string, value: unknown };

export type RunResultFieldsFragment = { result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, execution: { engine: string, total: string, orchestrator: { go: string, database: string, total: string } }, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
        | { __typename: 'ComparisonCondition', selector: string, operator: string, result: boolean, property: { path: string, value: unknown }, value: { type: string, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: string, value: unknown }, rightValue: { type: string, value: unknown } } | null }
        | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
      > }> } };

export type RunRuleMutationVariables = Exact<{
  rule: string;
  data: unknown;
}>;


export type RunRuleMutation = { runRule: { result: boolean, rule: Array<string>, data: unknown, error: string | null, labels: unknown, execution: { engine: string, total: string, orchestrator: { go: string, database: string, total: string } }, trace: { execution: Array<{ label: string | null, selector: string, outcome: string, result: boolean, conditions: Array<
          | { __typename: 'ComparisonCondition', selector: string, operator: string, result: boolean, property: { path: string, value: unknown }, value: { type: string, value: unknown }, evaluationDetails: { comparisonResult: boolean, leftValue: { type: string, value: unknown }, rightValue: { type: string, value: unknown } } | null }
          | { __typename: 'ReferenceCondition', selector: string, ruleName: string, referencedRuleOutcome: string | null, result: boolean, propertyCheck: { propertyName: string, propertyValue: unknown } | null }
        > }> } } };

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
export const TypedValueFieldsFragmentDoc = new TypedDocumentString(`
    fragment TypedValueFields on TypedValue {
  type
  value
}
    `, {"fragmentName":"TypedValueFields"}) as unknown as TypedDocumentString<TypedValueFieldsFragment, unknown>;
export const RunResultFieldsFragmentDoc = new TypedDocumentString(`
    fragment RunResultFields on PolicyRunResult {
  result
  rule
  data
  error
  labels
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
}
    fragment TypedValueFields on TypedValue {
  type
  value
}`, {"fragmentName":"RunResultFields"}) as unknown as TypedDocumentString<RunResultFieldsFragment, unknown>;
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
    query PolicyVersions($id: ID!) {
  policyVersions(id: $id) {
    baseId
    draft {
      ...PolicyFields
    }
    versions {
      ...PolicyFields
    }
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
    query Policies($first: Int, $after: String, $query: String, $groupId: ID) {
  policies(first: $first, after: $after, query: $query, groupId: $groupId) {
    edges {
      cursor
      node {
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
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<PoliciesQuery, PoliciesQueryVariables>;
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
    mutation UpdatePolicyDraft($id: ID!, $input: UpdatePolicyInput!) {
  updatePolicyDraft(id: $id, input: $input) {
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
    mutation PublishPolicy($id: ID!, $input: UpdatePolicyInput) {
  publishPolicy(id: $id, input: $input) {
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
    mutation CreatePolicyDraftFromVersion($id: ID!, $replace: Boolean) {
  createPolicyDraftFromVersion(id: $id, replace: $replace) {
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
    mutation DeletePolicy($id: ID!) {
  deletePolicy(id: $id)
}
    `) as unknown as TypedDocumentString<DeletePolicyMutation, DeletePolicyMutationVariables>;
export const RunPolicyDocument = new TypedDocumentString(`
    mutation RunPolicy($baseId: ID!, $data: JSON!) {
  runPolicy(baseId: $baseId, data: $data) {
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
}`) as unknown as TypedDocumentString<RunPolicyMutation, RunPolicyMutationVariables>;
export const RunPolicyVersionDocument = new TypedDocumentString(`
    mutation RunPolicyVersion($policyId: ID!, $data: JSON!) {
  runPolicyVersion(policyId: $policyId, data: $data) {
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
}`) as unknown as TypedDocumentString<RunPolicyVersionMutation, RunPolicyVersionMutationVariables>;
export const RunRuleDocument = new TypedDocumentString(`
    mutation RunRule($rule: String!, $data: JSON!) {
  runRule(rule: $rule, data: $data) {
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