// Automatic layout of a flow graph with dagre: top to bottom, the start
// node first, branches side by side.
import dagre from '@dagrejs/dagre';

export const NODE_WIDTH = 230;
export const NODE_HEIGHT = 96;

export function layout(nodeIds: string[], edges: { source: string; target: string }[]): Map<string, { x: number; y: number }> {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 50, ranksep: 70, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const id of nodeIds) g.setNode(id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  const known = new Set(nodeIds);
  for (const e of edges) if (known.has(e.source) && known.has(e.target)) g.setEdge(e.source, e.target);
  dagre.layout(g);
  const out = new Map<string, { x: number; y: number }>();
  for (const id of nodeIds) {
    const p = g.node(id);
    // dagre gives centres; the graph places nodes by their top left corner.
    out.set(id, { x: p.x - NODE_WIDTH / 2, y: p.y - NODE_HEIGHT / 2 });
  }
  return out;
}
