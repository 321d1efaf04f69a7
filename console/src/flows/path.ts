// Which nodes and edges a run went through, from its node responses: the
// graph highlights them.
import type { FlowRunResultFieldsFragment } from '@verdict/client';
import { edgesOf, targets, branchMember } from './definition';
import type { Definition, Handle } from './definition';

export interface RunPath {
  nodes: Set<string>;
  edges: Set<string>;
  /** The nodes in the order the run reached them, the return node it ended on last. */
  steps: string[];
}

export function runPath(d: Definition, run: FlowRunResultFieldsFragment): RunPath {
  const byId = new Map(d.nodes.map((n) => [n.id, n]));
  const nodes = new Set(run.nodeResponses.map((r) => r.nodeId));
  const edges = new Set<string>();
  const all = edgesOf(d);
  let ended: string | undefined;
  run.nodeResponses.forEach((r, i) => {
    if (r.response.error) return;
    const node = byId.get(r.nodeId);
    if (!node) return;
    const handle: Handle = r.nodeType === 'CUSTOM' ? 'next' : r.response.result ? 'true' : 'false';
    const next = targets(node[branchMember[handle]] as Parameters<typeof targets>[0]);
    const last = i === run.nodeResponses.length - 1;
    for (const t of next) {
      // A return node ends the run without a response of its own: it was
      // reached when the last node that ran branches to it.
      const reached = nodes.has(t) || (last && byId.get(t)?.type === 'return');
      if (!reached) continue;
      if (!nodes.has(t)) ended = t;
      nodes.add(t);
      for (const e of all) if (e.source === node.id && e.handle === handle && e.target === t) edges.add(e.id);
    }
  });
  // The run's own path leaves out the return node it ended on, which ran no policy.
  return { nodes, edges, steps: [run.nodeId, ...run.executionPath, ...(ended ? [ended] : [])] };
}
