// A flow definition in its stored form (format version 1, as docs/flows.md
// describes it) and the edits the graph editor makes to it. The definition
// stays the single source of truth: the graph is drawn from it, and every
// edit returns a new definition.

import { isJSONObject } from '../runData';

export type Branch = string | string[] | null | undefined;

export interface PolicyRef {
  id?: string;
  baseId?: string;
  ref?: string;
}

export type NodeType = 'start' | 'policy' | 'return' | 'custom';

export interface FlowNode {
  id: string;
  type: string;
  name?: string;
  policy?: PolicyRef;
  policyId?: string;
  onTrue?: Branch;
  onFalse?: Branch;
  next?: Branch;
  returnValue?: unknown;
  outcome?: string;
  [member: string]: unknown;
}

export interface Definition {
  formatVersion: number;
  start?: string;
  nodes: FlowNode[];
  metadata?: Record<string, unknown>;
  [member: string]: unknown;
}

/** The branch a handle of the graph stands for. */
export type Handle = 'true' | 'false' | 'next';

export const branchMember: Record<Handle, 'onTrue' | 'onFalse' | 'next'> = { true: 'onTrue', false: 'onFalse', next: 'next' };

export function emptyDefinition(): Definition {
  return { formatVersion: 1, start: 'start', nodes: [{ id: 'start', type: 'start', name: 'Start' }] };
}

/** The stored definition as the editor reads it; anything unexpected becomes an empty node list. */
export function asDefinition(v: unknown): Definition {
  if (isJSONObject(v)) {
    const d = v as unknown as Definition;
    if (Array.isArray(d.nodes)) return { ...d, nodes: d.nodes.filter((n) => n && typeof n === 'object') };
  }
  return { formatVersion: 1, nodes: [] };
}

export function targets(b: Branch): string[] {
  if (typeof b === 'string') return b ? [b] : [];
  return Array.isArray(b) ? b.filter((t): t is string => typeof t === 'string') : [];
}

/** The handles a node of this type branches from. */
export function handlesOf(type: string): Handle[] {
  if (type === 'start' || type === 'policy') return ['true', 'false'];
  if (type === 'custom') return ['next'];
  return [];
}

export function startOf(d: Definition): string | undefined {
  return d.start ?? d.nodes.find((n) => n.type === 'start')?.id;
}

export interface FlowEdge {
  /** Stable across edits: the source, its handle, and the target's place in the branch. */
  id: string;
  source: string;
  handle: Handle;
  target: string;
}

export function edgesOf(d: Definition): FlowEdge[] {
  const out: FlowEdge[] = [];
  for (const n of d.nodes) {
    for (const h of handlesOf(n.type)) {
      targets(n[branchMember[h]] as Branch).forEach((t, i) => out.push({ id: `${n.id}:${h}:${i}`, source: n.id, handle: h, target: t }));
    }
  }
  return out;
}

function withNode(d: Definition, id: string, change: (n: FlowNode) => FlowNode): Definition {
  return { ...d, nodes: d.nodes.map((n) => (n.id === id ? change(n) : n)) };
}

export function updateNode(d: Definition, id: string, patch: Partial<FlowNode>): Definition {
  return withNode(d, id, (n) => {
    const next: FlowNode = { ...n, ...patch };
    for (const [k, v] of Object.entries(patch)) if (v === undefined) delete next[k];
    return next;
  });
}

// The members that belong to a node's type: a node of another type
// cannot hold them (a branch it does not follow is an error).
const typedMembers = ['policy', 'policyId', 'onTrue', 'onFalse', 'returnValue', 'outcome', 'next'] as const;
const membersOfType: Record<string, readonly string[]> = {
  start: ['policy', 'policyId', 'onTrue', 'onFalse'],
  policy: ['policy', 'policyId', 'onTrue', 'onFalse'],
  return: ['returnValue'],
  custom: ['outcome', 'next'],
};

/** What a change of type took from a node, for a change back to put back. */
export type TypeStash = Partial<FlowNode>;

/**
 * Gives a node another type: the members both types hold stay, those the
 * new type cannot hold go to the stash, and those it holds that the node
 * lacks come back from the stash, so that a change there and back (an
 * arrow key through the types, say) gives the node back as it was. A
 * member the new type needs and neither has gets its default.
 */
export function changeType(d: Definition, id: string, type: string, stash: TypeStash = {}): { definition: Definition; stash: TypeStash } {
  const kept: TypeStash = { ...stash };
  const holds = new Set(membersOfType[type] ?? typedMembers);
  const definition = withNode(d, id, (n) => {
    const next: FlowNode = { ...n, type };
    for (const m of typedMembers) {
      if (!holds.has(m) && m in next) {
        (kept as Record<string, unknown>)[m] = next[m];
        delete next[m];
      }
    }
    for (const m of holds) {
      if (!(m in next) && m in kept) {
        next[m] = kept[m];
        delete kept[m];
      }
    }
    if (type === 'return' && typeof next.returnValue !== 'boolean') next.returnValue = true;
    if (type === 'custom' && typeof next.outcome !== 'string') next.outcome = '';
    return next;
  });
  return { definition, stash: kept };
}

/** Points a branch at one node, or empties it (target null). */
export function setBranch(d: Definition, source: string, handle: Handle, target: string | null): Definition {
  return withNode(d, source, (n) => {
    const next = { ...n };
    if (target) next[branchMember[handle]] = target;
    else delete next[branchMember[handle]];
    return next;
  });
}

/** Removes a node and every branch that led to it. */
export function removeNode(d: Definition, id: string): Definition {
  const nodes = d.nodes
    .filter((n) => n.id !== id)
    .map((n) => {
      const next = { ...n };
      for (const m of ['onTrue', 'onFalse', 'next'] as const) {
        const b = n[m];
        if (b === undefined) continue;
        const left = targets(b).filter((t) => t !== id);
        if (left.length === 0) delete next[m];
        else next[m] = Array.isArray(b) ? left : left[0];
      }
      return next;
    });
  const out: Definition = { ...d, nodes };
  if (d.start === id) delete out.start;
  return out;
}

/** Adds a node of a type with the members it needs, named by a fresh id. */
export function addNode(d: Definition, type: NodeType): { definition: Definition; id: string } {
  const taken = new Set(d.nodes.map((n) => n.id));
  let i = 1;
  while (taken.has(`${type}-${i}`)) i++;
  const id = `${type}-${i}`;
  const node: FlowNode = { id, type };
  if (type === 'return') node.returnValue = true;
  if (type === 'custom') node.outcome = '';
  const definition: Definition = { ...d, nodes: [...d.nodes, node] };
  if (type === 'start' && !d.start && !d.nodes.some((n) => n.type === 'start')) definition.start = id;
  return { definition, id };
}

/** Which policy a node runs, whichever way it names it. */
export function policyRefOf(n: FlowNode): { kind: 'pinned' | 'latest' | 'either'; id: string } | null {
  if (n.policy?.id) return { kind: 'pinned', id: n.policy.id };
  if (n.policy?.baseId) return { kind: 'latest', id: n.policy.baseId };
  if (n.policy?.ref) return { kind: 'either', id: n.policy.ref };
  if (typeof n.policyId === 'string' && n.policyId) return { kind: 'either', id: n.policyId };
  return null;
}

export function setPolicy(d: Definition, nodeId: string, ref: PolicyRef): Definition {
  return updateNode(d, nodeId, { policy: ref, policyId: undefined });
}

export function nodeTitle(n: FlowNode): string {
  if (n.name) return n.name;
  if (n.type === 'return') return `Return ${String(n.returnValue)}`;
  if (n.type === 'custom') return n.outcome ? `Outcome “${n.outcome}”` : 'Custom outcome';
  return n.id;
}
