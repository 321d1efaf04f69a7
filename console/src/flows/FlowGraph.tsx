// A flow drawn as a graph with xyflow, laid out by dagre. The editor, the
// test view and the comparison build a GraphModel and hand it over; the
// graph reports selections, new connections and deletions back.
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import {
  Background,
  Controls,
  Handle,
  MarkerType,
  Position,
  ReactFlow,
  ReactFlowProvider,
  applyEdgeChanges,
  applyNodeChanges,
  getViewportForBounds,
  useNodesInitialized,
  useReactFlow,
  useStore,
  useStoreApi,
  useUpdateNodeInternals,
} from '@xyflow/react';
import type { Edge, EdgeChange, Node, NodeChange, NodeProps, Rect } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { FlowNode, Handle as BranchHandle } from './definition';
import { handlesOf, nodeTitle } from './definition';
import type { Problem } from './problems';
import { problemText } from './problems';
import { NODE_HEIGHT, NODE_WIDTH, layout } from './layout';
import { plural } from '../format';

/** What a comparison found for a node or a branch. */
export type Change = 'added' | 'removed' | 'changed' | 'same';

export interface GraphNode {
  id: string;
  node: FlowNode;
  isStart: boolean;
  /** The policy the node runs, as people read it. */
  policyLabel?: string;
  problems: Problem[];
  result?: { text: string; tone: 'pass' | 'fail' | 'error' | 'neutral' };
  onPath?: boolean;
  change?: Change;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  handle: BranchHandle;
  problems: Problem[];
  onPath?: boolean;
  change?: Change;
}

export interface GraphModel {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

const typeNames: Record<string, string> = { start: 'Start', policy: 'Policy', return: 'Return', custom: 'Custom outcome' };

type FlowNodeData = GraphNode & Record<string, unknown>;

// A branch's handle is in the same place on every node, whatever order the
// node lists its branches in: true on the left, false on the right.
const handleLeft: Record<BranchHandle, string> = { true: '30%', false: '70%', next: '50%' };

const FlowNodeView = memo(function FlowNodeView({ data, selected }: NodeProps<Node<FlowNodeData>>) {
  const { node, problems, result, onPath, change, policyLabel, isStart } = data;
  const errors = problems.filter((p) => p.severity === 'error').length;
  const classes = [
    'fnode',
    `fnode-${typeNames[node.type] ? node.type : 'unknown'}`,
    handlesOf(node.type).length ? 'fnode-branching' : '',
    selected ? 'fnode-selected' : '',
    onPath ? 'fnode-path' : '',
    errors ? 'fnode-error' : problems.length ? 'fnode-warning' : '',
    change && change !== 'same' ? `fnode-${change}` : '',
  ];
  return (
    <div className={classes.filter(Boolean).join(' ')} data-testid={`flow-node-${node.id}`} style={{ width: NODE_WIDTH }}>
      {/* The start node takes no branch, but one that leads to it all the same (written in the definition) is drawn, with its error. */}
      <Handle type="target" position={Position.Top} className={isStart ? 'fnode-start-in' : undefined} isConnectable={!isStart} />
      {/* A branch dropped anywhere on the node ends on it: while one is drawn, this handle covers the node. */}
      {!isStart && <Handle id="node" type="target" position={Position.Top} className="fnode-drop" isConnectableStart={false} aria-hidden="true" />}
      <div className="fnode-head">
        <span className="fnode-type">{typeNames[node.type] ?? node.type}</span>
        {change && change !== 'same' && <span className={`badge badge-${change}`}>{change}</span>}
        {result && (
          <span className={`badge badge-result-${result.tone}`} data-testid="node-result">
            {result.text}
          </span>
        )}
      </div>
      <div className="fnode-title">{nodeTitle(node)}</div>
      {policyLabel && <div className="fnode-policy">{policyLabel}</div>}
      {problems.length > 0 && (
        <ul className="fnode-problems" aria-label={`Problems of ${node.id}`}>
          {problems.map((p) => (
            <li key={p.message} className={`problem-${p.severity}`}>
              {problemText(p)}
            </li>
          ))}
        </ul>
      )}
      {handlesOf(node.type).map((h) => (
        <Handle
          key={h}
          id={h}
          type="source"
          position={Position.Bottom}
          className={`handle-${h}`}
          style={{ left: handleLeft[h] }}
          role="img"
          aria-label={`${h} branch of ${node.id}`}
        >
          <span className="handle-label" aria-hidden="true">
            {h}
          </span>
        </Handle>
      ))}
    </div>
  );
});

const nodeTypes = { flow: FlowNodeView };

function structureKey(m: GraphModel): string {
  return JSON.stringify([m.nodes.map((n) => n.id), m.edges.map((e) => [e.source, e.target])]);
}

function edgeClass(e: GraphEdge): string {
  return [
    `fedge fedge-${e.handle}`,
    e.onPath ? 'fedge-path' : '',
    e.problems.length ? 'fedge-problem' : '',
    e.change && e.change !== 'same' ? `fedge-${e.change}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * The zoom from which a node's text reads well (its 12.5 px type shows at
 * about 9 px): a flow that fits the canvas at this zoom or more is shown
 * whole, a larger one opens on its start (see START_REACH), and a node
 * brought into view is shown at this zoom at least.
 */
export const READABLE_ZOOM = 0.75;

/** How many branches from its start node a flow too large to show whole opens with. */
export const START_REACH = 2;

const MIN_ZOOM = 0.2;
const MAX_ZOOM = 2;
/** Around what the view fits, as React Flow's fitView leaves: a tenth of the canvas. */
const PADDING = 0.1;
/** How near the canvas's edge a node may be and still count as in view, in pixels. */
const MARGIN = 8;

/**
 * A request to bring a node into view: a new object each time, so that the
 * same node is brought back after the view moved away from it.
 */
export interface Reveal {
  id: string;
}

export interface FlowGraphProps {
  model: GraphModel;
  label: string;
  editable?: boolean;
  selected?: string | null;
  /**
   * The node to bring into view, when it was chosen elsewhere than on the
   * canvas (a list, an error naming it, a node just added, a run's last
   * node). A node clicked on the canvas is in view already and is not
   * passed here, so the view does not move under the pointer.
   */
  reveal?: Reveal | null;
  onSelect?: (id: string | null) => void;
  onConnect?: (source: string, handle: BranchHandle, target: string) => void;
  onRemoveNode?: (id: string) => void;
  onRemoveEdge?: (edge: GraphEdge) => void;
}

export function FlowGraph(props: FlowGraphProps) {
  return (
    <ReactFlowProvider>
      <Graph {...props} />
    </ReactFlowProvider>
  );
}

function union(boxes: Rect[]): Rect {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}

/** The start node (else the first) and the nodes up to `reach` branches from it. */
function nearStart(model: GraphModel, reach: number): string[] {
  const first = model.nodes.find((n) => n.isStart) ?? model.nodes[0];
  if (!first) return [];
  const seen = new Set([first.id]);
  let ring = [first.id];
  for (let step = 0; step < reach && ring.length > 0; step++) {
    const from = new Set(ring);
    ring = model.edges.filter((e) => from.has(e.source) && !seen.has(e.target)).map((e) => e.target);
    ring.forEach((id) => seen.add(id));
  }
  return model.nodes.filter((n) => seen.has(n.id)).map((n) => n.id);
}

function Graph({ model, label, editable = false, selected = null, reveal = null, onSelect, onConnect, onRemoveNode, onRemoveEdge }: FlowGraphProps) {
  const key = structureKey(model);
  // Positions come from the layout whenever nodes or edges come or go;
  // dragging moves a node until the next change of structure. They keep
  // the structure they were laid out for: the view waits for them.
  const [laid, setLaid] = useState(() => ({ key, positions: layout(model.nodes.map((n) => n.id), model.edges) }));
  const positions = laid.positions;
  const setPositions = (update: (p: Map<string, { x: number; y: number }>) => Map<string, { x: number; y: number }>) =>
    setLaid((l) => ({ key: l.key, positions: update(l.positions) }));
  useEffect(() => {
    if (laid.key === key) return;
    setLaid({ key, positions: layout(model.nodes.map((n) => n.id), model.edges) });
  }, [key, model, laid.key]);

  const [nodes, setNodes] = useState<Node<FlowNodeData>[]>([]);
  const [edges, setEdges] = useState<Edge[]>([]);
  useEffect(() => {
    setNodes((prev) => {
      const measured = new Map(prev.map((n) => [n.id, n.measured]));
      return model.nodes.map((n) => ({
        id: n.id,
        type: 'flow',
        position: positions.get(n.id) ?? { x: 0, y: 0 },
        data: n as FlowNodeData,
        selected: n.id === selected,
        deletable: editable,
        connectable: editable,
        ariaLabel: `${typeNames[n.node.type] ?? n.node.type} node ${nodeTitle(n.node)}${n.problems.length ? `, ${plural(n.problems.length, 'problem', 'problems')}` : ''}`,
        measured: measured.get(n.id),
      }));
    });
  }, [model, positions, selected, editable]);
  useEffect(() => {
    setEdges(
      model.edges.map((e) => ({
        id: e.id,
        source: e.source,
        sourceHandle: e.handle,
        target: e.target,
        type: 'smoothstep',
        label: e.problems.length ? `${e.handle} · ${problemText(e.problems[0]!)}` : e.handle,
        className: edgeClass(e),
        deletable: editable,
        markerEnd: { type: MarkerType.ArrowClosed },
        ariaLabel: `${e.handle} branch from ${e.source} to ${e.target}${e.problems.length ? `. ${e.problems.map(problemText).join('; ')}` : ''}`,
        data: { model: e },
      })),
    );
  }, [model, editable]);

  // The nodes are rebuilt on every change of the model, with the size React
  // Flow last reported through onNodesChange. A node changed again before
  // that report (a node just added, then edited) reaches React Flow without
  // a size; it then forgets the node's handles. If it had measured the node
  // in between, it does not measure it again, and edges to or from the node
  // are never drawn. So every node left without handles is measured again.
  const store = useStoreApi<Node<FlowNodeData>>();
  const updateNodeInternals = useUpdateNodeInternals();
  useEffect(() => {
    const { nodeLookup } = store.getState();
    const unmeasured = nodes.filter((n) => !nodeLookup.get(n.id)?.internals.handleBounds).map((n) => n.id);
    if (unmeasured.length > 0) updateNodeInternals(unmeasured);
  }, [nodes, store, updateNodeInternals]);

  // A node removed by the keyboard took the focus with it: the next node
  // in the flow (else the graph itself) takes it once the node is gone,
  // rather than the start of the page.
  const canvas = useRef<HTMLDivElement>(null);
  const focusAfterRemoval = useRef<string | null>(null);
  useEffect(() => {
    const next = focusAfterRemoval.current;
    if (next === null) return;
    focusAfterRemoval.current = null;
    const node = next ? canvas.current?.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(next)}"]`) : null;
    (node ?? canvas.current)?.focus();
  }, [nodes]);

  // Where the view goes. A flow that fits the canvas at READABLE_ZOOM or
  // more is shown whole, when it opens and whenever nodes or edges come or
  // go. A larger one opens on its start node and the nodes near it; a
  // change of its structure brings the node asked for (or else the
  // selected one) into view, and otherwise leaves the view where the user
  // put it. Boxes come from the layout, with the size React Flow measured
  // (a node just added has none yet: it has the layout's).
  const flow = useReactFlow<Node<FlowNodeData>>();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const measured = useNodesInitialized();
  const boxOf = useCallback(
    (id: string): Rect | null => {
      const at = laid.positions.get(id);
      if (!at) return null;
      const size = store.getState().nodeLookup.get(id)?.measured;
      return { x: at.x, y: at.y, width: size?.width || NODE_WIDTH, height: size?.height || NODE_HEIGHT };
    },
    [laid, store],
  );
  const bringIntoView = useCallback(
    (id: string) => {
      const box = boxOf(id);
      if (!box) return;
      const { x, y, zoom } = flow.getViewport();
      const left = box.x * zoom + x;
      const top = box.y * zoom + y;
      const inView = left >= MARGIN && top >= MARGIN && left + box.width * zoom <= width - MARGIN && top + box.height * zoom <= height - MARGIN;
      if (inView && zoom >= READABLE_ZOOM) return;
      // Read at READABLE_ZOOM at least, or closer as the user zoomed in,
      // yet whole on the canvas.
      const fits = Math.max(MIN_ZOOM, Math.min((width * 0.8) / box.width, (height * 0.8) / box.height));
      const to = Math.min(Math.max(zoom, READABLE_ZOOM), fits, MAX_ZOOM);
      const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      void flow.setCenter(box.x + box.width / 2, box.y + box.height / 2, { zoom: to, duration: still ? 0 : 200 });
    },
    [boxOf, flow, width, height],
  );
  const viewed = useRef<string | null>(null);
  const wanted = useRef<string | null>(null);
  const selectedNow = useRef(selected);
  selectedNow.current = selected;
  useEffect(() => {
    if (laid.key !== key || width === 0 || height === 0 || viewed.current === key) return;
    // The first view waits for the nodes' sizes, as React Flow's fitView does.
    if (viewed.current === null && !measured) return;
    const frame = window.requestAnimationFrame(() => {
      const first = viewed.current === null;
      viewed.current = key;
      const boxes = model.nodes.map((n) => boxOf(n.id)).filter((b) => b !== null);
      if (boxes.length === 0) return;
      const whole = getViewportForBounds(union(boxes), width, height, MIN_ZOOM, MAX_ZOOM, PADDING);
      const target = [wanted.current, selectedNow.current].find((id) => id && laid.positions.has(id));
      wanted.current = null;
      if (whole.zoom >= READABLE_ZOOM) void flow.setViewport(whole);
      else if (target) bringIntoView(target);
      else if (first) {
        const start = nearStart(model, START_REACH).map(boxOf).filter((b) => b !== null);
        void flow.setViewport(getViewportForBounds(union(start), width, height, READABLE_ZOOM, 1, PADDING));
      }
    });
    return () => window.cancelAnimationFrame(frame);
  }, [laid, key, width, height, measured, model, boxOf, bringIntoView, flow]);

  // A node asked for within the same structure is brought into view at
  // once; one that comes with a change of structure (a node added) once
  // that change is laid out, above.
  const revealed = useRef<Reveal | null>(null);
  useEffect(() => {
    if (reveal && revealed.current !== reveal) {
      revealed.current = reveal;
      wanted.current = reveal.id;
    }
    const id = wanted.current;
    if (!id || laid.key !== key || viewed.current !== key || width === 0 || height === 0) return;
    wanted.current = null;
    bringIntoView(id);
  }, [reveal, laid.key, key, width, height, bringIntoView]);

  const onNodesChange = (changes: NodeChange<Node<FlowNodeData>>[]) => {
    setNodes((ns) => applyNodeChanges(changes.filter((c) => c.type !== 'remove'), ns));
    for (const c of changes) {
      if (c.type === 'select' && c.selected) onSelect?.(c.id);
      if (c.type === 'position' && c.position && !c.dragging) {
        const at = c.position;
        setPositions((p) => new Map(p).set(c.id, at));
      }
      if (c.type === 'remove' && editable) {
        const ids = model.nodes.map((n) => n.id);
        const at = ids.indexOf(c.id);
        focusAfterRemoval.current = ids[at + 1] ?? ids[at - 1] ?? '';
        onRemoveNode?.(c.id);
      }
    }
  };
  const onEdgesChange = (changes: EdgeChange[]) => {
    setEdges((es) => applyEdgeChanges(changes.filter((c) => c.type !== 'remove'), es));
    for (const c of changes) {
      if (c.type !== 'remove' || !editable) continue;
      const e = model.edges.find((x) => x.id === c.id);
      if (e) onRemoveEdge?.(e);
    }
  };

  return (
    <div className="flow-canvas" role="group" aria-label={label} ref={canvas} tabIndex={-1}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={(c) => {
          if (editable && c.source && c.target && c.sourceHandle) onConnect?.(c.source, c.sourceHandle as BranchHandle, c.target);
        }}
        // A node's branch never leads back to the node itself.
        isValidConnection={(c) => c.source !== c.target}
        onPaneClick={() => onSelect?.(null)}
        nodesConnectable={editable}
        deleteKeyCode={editable ? ['Delete', 'Backspace'] : null}
        minZoom={MIN_ZOOM}
        maxZoom={MAX_ZOOM}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
