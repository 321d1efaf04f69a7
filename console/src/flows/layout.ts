// Automatic layout of a flow graph with dagre: top to bottom, the start
// node first, branches side by side, each node's true branch to the left
// of its false one, as its handles are. What dagre is asked to honour is
// bounded, so that a flow of a thousand nodes is laid out in about a
// second rather than in minutes (see MAX_CROSSED_LAYERS and
// MAX_ORDERING_WORK).
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
  const layer = layers([...known], drawn);
  for (const e of placingBranches(drawn, layer)) g.setEdge(e.source, e.target);
  dagre.layout(g, { constraints: orderings(trueLeftOfFalse(drawn, layer), layer) });
  const out = new Map<string, { x: number; y: number }>();
  for (const id of nodeIds) {
    const p = g.node(id);
    // dagre gives centres; the graph places nodes by their top left corner.
    out.set(id, { x: p.x - NODE_WIDTH / 2, y: p.y - NODE_HEIGHT / 2 });
  }
  return out;
}

/**
 * How many layers a flow's branches may cross in all before the long ones
 * are left out of the layout: dagre routes a branch through a placeholder
 * in every layer it crosses, and its time grows with the square of their
 * number. A chain of 20 checks that all fail to one return node crosses
 * 190 layers (0.1 s); of 100, 4,950 (3 s, after every edit); of 3,000,
 * dagre's recursion overflows the stack.
 */
export const MAX_CROSSED_LAYERS = 300;

/**
 * How many times the layers may hold an ordering of two nodes in all:
 * dagre adds every ordering to every layer on each of its sweeps.
 */
export const MAX_ORDERING_WORK = 20_000;

/**
 * The branches that place the nodes: all of them, unless they would cross
 * more than MAX_CROSSED_LAYERS layers in all; then only those from one
 * layer to the next. Every node but the first ones keeps its branch from
 * the layer just above it, so the layers stay as counted. The branches
 * left out are still drawn; only the placement ignores them.
 */
function placingBranches(edges: LayoutEdge[], layer: Map<string, number>): LayoutEdge[] {
  const span = (e: LayoutEdge) => layer.get(e.target)! - layer.get(e.source)!;
  let crossed = 0;
  for (const e of edges) crossed += Math.max(span(e) - 1, 0);
  return crossed <= MAX_CROSSED_LAYERS ? edges : edges.filter((e) => span(e) === 1);
}

/**
 * As many orderings as MAX_ORDERING_WORK allows, the top layers' first.
 */
function orderings(pairs: { left: string; right: string }[], layer: Map<string, number>) {
  const layerCount = Math.max(0, ...layer.values()) + 1;
  return pairs.sort((a, b) => layer.get(a.left)! - layer.get(b.left)!).slice(0, Math.floor(MAX_ORDERING_WORK / layerCount));
}

/**
 * Each node's layer: the longest path to it from a node no branch leads
 * to. Branches that go round (a draft may hold them) are broken where they
 * hold up the fewest: the node with the fewest branches into it from
 * nodes not yet placed is placed next.
 */
function layers(nodeIds: string[], edges: LayoutEdge[]): Map<string, number> {
  const layer = new Map<string, number>(nodeIds.map((id) => [id, 0]));
  const waiting = new Map<string, number>(nodeIds.map((id) => [id, 0]));
  const out = new Map<string, LayoutEdge[]>();
  for (const e of edges) {
    waiting.set(e.target, waiting.get(e.target)! + 1);
    const from = out.get(e.source);
    if (from) from.push(e);
    else out.set(e.source, [e]);
  }
  const ready = [...waiting].filter(([, n]) => n === 0).map(([id]) => id);
  const place = (v: string) => {
    waiting.delete(v);
    for (const e of out.get(v) ?? []) {
      const left = waiting.get(e.target);
      if (left === undefined) continue;
      layer.set(e.target, Math.max(layer.get(e.target)!, layer.get(v)! + 1));
      waiting.set(e.target, left - 1);
      if (left === 1) ready.push(e.target);
    }
  };
  while (waiting.size > 0) {
    const next = ready.pop();
    if (next !== undefined) {
      place(next);
      continue;
    }
    let fewest: [string, number] | undefined;
    for (const entry of waiting) if (fewest === undefined || entry[1] < fewest[1]) fewest = entry;
    place(fewest![0]);
  }
  return layer;
}

/**
 * Asks dagre to place each node's true target left of its false target
 * when they share a layer (only those orderings are of use to it, and
 * checking the others for cycles would be wasted); left alone, it places them either way, and a
 * false branch drawn from the right handle to a node on the left crosses
 * the true one. A pair that other nodes' branches order the other way is
 * left out: dagre cannot honour constraints that go round.
 */
function trueLeftOfFalse(edges: LayoutEdge[], layer: Map<string, number>): { left: string; right: string }[] {
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
    if (right === undefined || right === left || layer.get(left) !== layer.get(right) || reaches(right, left)) continue;
    rightOf.set(left, [...(rightOf.get(left) ?? []), right]);
    out.push({ left, right });
  }
  return out;
}
