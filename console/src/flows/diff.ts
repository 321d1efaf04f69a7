// What changed between two definitions: nodes by id, and branches by their
// source and handle (a branch whose target moved is changed).
import { edgesOf, nodeTitle } from './definition';
import type { Definition, FlowEdge, FlowNode } from './definition';

export type Change = 'added' | 'removed' | 'changed' | 'same';

export interface NodeChange {
  id: string;
  change: Change;
  title: string;
  /** What differs, member by member, for a changed node. */
  details: string[];
}

export interface EdgeChange {
  key: string;
  source: string;
  handle: string;
  change: Change;
  from: string | null;
  to: string | null;
}

export interface DefinitionDiff {
  nodes: NodeChange[];
  edges: EdgeChange[];
}

// Branches are compared as edges, not as members of their node.
const branchMembers = new Set(['onTrue', 'onFalse', 'next']);

function describe(v: unknown): string {
  return v === undefined ? 'nothing' : JSON.stringify(v);
}

function memberChanges(a: FlowNode, b: FlowNode): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !branchMembers.has(k)).sort();
  return keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).map((k) => `${k}: ${describe(a[k])} → ${describe(b[k])}`);
}

function branchKey(e: FlowEdge, i: number): string {
  return `${e.source}:${e.handle}:${i}`;
}

function keyed(d: Definition): Map<string, FlowEdge> {
  const out = new Map<string, FlowEdge>();
  const seen = new Map<string, number>();
  for (const e of edgesOf(d)) {
    const base = `${e.source}:${e.handle}`;
    const i = seen.get(base) ?? 0;
    seen.set(base, i + 1);
    out.set(branchKey(e, i), e);
  }
  return out;
}

export function diffDefinitions(left: Definition, right: Definition): DefinitionDiff {
  const a = new Map(left.nodes.map((n) => [n.id, n]));
  const b = new Map(right.nodes.map((n) => [n.id, n]));
  const nodes: NodeChange[] = [];
  for (const [id, n] of a) {
    const m = b.get(id);
    if (!m) nodes.push({ id, change: 'removed', title: nodeTitle(n), details: [] });
    else {
      const details = memberChanges(n, m);
      nodes.push({ id, change: details.length ? 'changed' : 'same', title: nodeTitle(m), details });
    }
  }
  for (const [id, n] of b) if (!a.has(id)) nodes.push({ id, change: 'added', title: nodeTitle(n), details: [] });
  if ((left.start ?? null) !== (right.start ?? null) && left.start && right.start) {
    const s = nodes.find((n) => n.id === right.start);
    if (s && s.change === 'same') {
      s.change = 'changed';
      s.details.push(`start: ${left.start} → ${right.start}`);
    }
  }
  const ea = keyed(left);
  const eb = keyed(right);
  const edges: EdgeChange[] = [];
  for (const [key, e] of ea) {
    const f = eb.get(key);
    edges.push({ key, source: e.source, handle: e.handle, change: !f ? 'removed' : f.target === e.target ? 'same' : 'changed', from: e.target, to: f?.target ?? null });
  }
  for (const [key, e] of eb) if (!ea.has(key)) edges.push({ key, source: e.source, handle: e.handle, change: 'added', from: null, to: e.target });
  return { nodes, edges };
}
