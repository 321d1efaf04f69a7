// A flow drawn as a graph with xyflow, laid out by dagre. The editor, the
// test view and the comparison build a GraphModel and hand it over; the
// graph reports selections, new connections and deletions back.
import { memo, useEffect, useRef, useState } from 'react';
import { Background, Controls, Handle, MarkerType, Position, ReactFlow, ReactFlowProvider, applyEdgeChanges, applyNodeChanges, useReactFlow, useStoreApi, useUpdateNodeInternals } from '@xyflow/react';
import type { Edge, EdgeChange, Node, NodeChange, NodeProps } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { FlowNode, Handle as BranchHandle } from './definition';
import { handlesOf, nodeTitle } from './definition';
import type { Problem } from './problems';
import { NODE_WIDTH, layout } from './layout';
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
      {!isStart && <Handle type="target" position={Position.Top} />}
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
              {p.message}
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

export interface FlowGraphProps {
  model: GraphModel;
  label: string;
  editable?: boolean;
  selected?: string | null;
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

function Graph({ model, label, editable = false, selected = null, onSelect, onConnect, onRemoveNode, onRemoveEdge }: FlowGraphProps) {
  const key = structureKey(model);
  // Positions come from the layout whenever nodes or edges come or go;
  // dragging moves a node until the next change of structure.
  const [positions, setPositions] = useState(() => layout(model.nodes.map((n) => n.id), model.edges));
  const laidOut = useRef(key);
  useEffect(() => {
    if (laidOut.current === key) return;
    laidOut.current = key;
    setPositions(layout(model.nodes.map((n) => n.id), model.edges));
  }, [key, model]);

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
        label: e.problems.length ? `${e.handle}: ${e.problems[0]!.message}` : e.handle,
        className: edgeClass(e),
        deletable: editable,
        markerEnd: { type: MarkerType.ArrowClosed },
        ariaLabel: `${e.handle} branch from ${e.source} to ${e.target}`,
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
        fitView
        minZoom={0.2}
      >
        <FitOnChange structure={key} />
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}

/** Fits the view again when nodes come or go, once they are measured. */
function FitOnChange({ structure }: { structure: string }) {
  const flow = useReactFlow();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const t = window.requestAnimationFrame(() => void flow.fitView({ duration: 0 }));
    return () => window.cancelAnimationFrame(t);
  }, [structure, flow]);
  return null;
}
