// Automatic layout of a flow graph with dagre: top to bottom, the start
// node first, branches side by side, each node's true branch to the left
// of its false one, as its handles are.
import dagre from '@dagrejs/dagre';
import type { Handle } from './definition';

export const NODE_WIDTH = 230;
export const NODE_HEIGHT = 96;

export interface LayoutEdge {
  source: string;
  target: string;
  handle?: Handle;
}

export function layout(nodeIds: string[], edges: LayoutEdge[]): Map<string, { x: number; y: number }> {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 50, ranksep: 70, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const id of nodeIds) g.setNode(id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  const known = new Set(nodeIds);
  const drawn = edges.filter((e) => known.has(e.source) && known.has(e.target));
  for (const e of drawn) g.setEdge(e.source, e.target);
  dagre.layout(g, { constraints: trueLeftOfFalse(drawn) });
  const out = new Map<string, { x: number; y: number }>();
  for (const id of nodeIds) {
    const p = g.node(id);
    // dagre gives centres; the graph places nodes by their top left corner.
    out.set(id, { x: p.x - NODE_WIDTH / 2, y: p.y - NODE_HEIGHT / 2 });
  }
  return out;
}

/**
 * Asks dagre to place each node's true target left of its false target
 * when they share a rank; left alone, it places them either way, and a
 * false branch drawn from the right handle to a node on the left crosses
 * the true one. A pair that other nodes' branches order the other way is
 * left out: dagre cannot honour constraints that go round.
 */
function trueLeftOfFalse(edges: LayoutEdge[]): { left: string; right: string }[] {
  const targetOf = (handle: Handle) => {
    const m = new Map<string, string>();
    for (const e of edges) if (e.handle === handle && !m.has(e.source)) m.set(e.source, e.target);
    return m;
  };
  const onFalse = targetOf('false');
  const rightOf = new Map<string, string[]>();
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set([from]);
    const stack = [from];
    while (stack.length > 0) {
      const v = stack.pop()!;
      if (v === to) return true;
      for (const w of rightOf.get(v) ?? []) {
        if (!seen.has(w)) {
          seen.add(w);
          stack.push(w);
        }
      }
    }
    return false;
  };
  const out: { left: string; right: string }[] = [];
  for (const [source, left] of targetOf('true')) {
    const right = onFalse.get(source);
    if (right === undefined || right === left || reaches(right, left)) continue;
    rightOf.set(left, [...(rightOf.get(left) ?? []), right]);
    out.push({ left, right });
  }
  return out;
}
