import { useCallback, useMemo } from 'react';
import { FlowDiffDocument } from '@verdict/client';
import type { FlowDiffQuery, FlowFieldsFragment } from '@verdict/client';
import { plural } from '../format';
import { useSession } from '../session';
import { useServerDiff } from '../serverDiff';
import { comparedPair, recordLabel, unknownRecords } from '../versions';
import { useFlowRecords } from '../records';
import { CompareHeader, NotCompared } from '../components/CompareHeader';
import { LoadFailure } from '../components/LoadFailure';
import { asDefinition, branchMember, edgesOf, nodeTitle, startOf } from '../flows/definition';
import type { FlowNode, Handle } from '../flows/definition';
import { FlowGraph } from '../flows/FlowGraph';
import type { Change, GraphEdge, GraphModel } from '../flows/FlowGraph';

type Rec = FlowFieldsFragment;
type ServerDiff = NonNullable<FlowDiffQuery['flowDiff']>;
type ServerEdge = ServerDiff['edges']['added'][number];

const changeWords: Record<Change, string> = { added: 'Added', removed: 'Removed', changed: 'Changed', same: 'Unchanged' };

// The server names branches by their member; the graph, by their handle.
const handleOf: Record<string, Handle> = { onTrue: 'true', onFalse: 'false', next: 'next' };
const branchWords: Record<string, string> = { onTrue: 'true', onFalse: 'false', next: 'next' };

// Branches show as edges, so a changed node lists its other members, and
// a branch only where edges cannot show its change: the nodes it leads to
// in both records, in another order or another number of times (the server
// reports the node changed for it).
const branchMembers = new Set(['onTrue', 'onFalse', 'next']);

function describe(v: unknown): string {
  return v === undefined ? 'nothing' : JSON.stringify(v);
}

function targets(branch: unknown): string[] {
  if (Array.isArray(branch)) return branch as string[];
  return typeof branch === 'string' ? [branch] : [];
}

/** Whether a branch leads to the nodes both records have it lead to in another order, or another number of times. */
function reordered(before: unknown, after: unknown): boolean {
  const a = targets(before);
  const b = targets(after);
  const within = (list: string[], other: string[]) => list.filter((id) => other.includes(id));
  return JSON.stringify(within(a, b)) !== JSON.stringify(within(b, a));
}

/** The members of a node the server reports changed, each as before → after. */
function memberChanges(before: FlowNode, after: FlowNode): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys
    .filter((k) => (branchMembers.has(k) ? reordered(before[k], after[k]) : JSON.stringify(before[k]) !== JSON.stringify(after[k])))
    .map((k) => `${k}: ${describe(before[k])} → ${describe(after[k])}`);
}

const edgeKey = (e: ServerEdge) => `${e.from}:${e.branch}:${e.to}`;

interface NodeRow {
  id: string;
  change: Change;
  title: string;
  details: string[];
}

/**
 * The server's diff as a graph of both records, and as rows: the right
 * record's nodes and branches, with the left's that it no longer has.
 */
function compare(diff: ServerDiff, left: Rec, right: Rec): { model: GraphModel; nodes: NodeRow[] } {
  const da = asDefinition(left.definition);
  const db = asDefinition(right.definition);
  const added = new Set((diff.nodes.added as FlowNode[]).map((n) => n.id));
  const changed = new Map(diff.nodes.changed.map((c) => [c.id, c]));
  const removed = diff.nodes.removed as FlowNode[];
  const start = startOf(db) ?? startOf(da);
  const changeOf = (id: string): Change => (added.has(id) ? 'added' : changed.has(id) ? 'changed' : 'same');
  const addedEdges = new Set(diff.edges.added.map(edgeKey));
  const edges: GraphEdge[] = [
    ...edgesOf(db).map((e) => {
      const key = `${e.source}:${branchMember[e.handle]}:${e.target}`;
      return { id: e.id, source: e.source, target: e.target, handle: e.handle, problems: [], change: addedEdges.has(key) ? ('added' as const) : ('same' as const) };
    }),
    ...diff.edges.removed.flatMap((e) => {
      const handle = handleOf[e.branch];
      return handle ? [{ id: `removed:${edgeKey(e)}`, source: e.from, target: e.to, handle, problems: [], change: 'removed' as const }] : [];
    }),
  ];
  const model: GraphModel = {
    nodes: [
      ...db.nodes.map((n) => ({ id: n.id, node: n, isStart: n.id === start, problems: [], change: changeOf(n.id) })),
      ...removed.map((n) => ({ id: n.id, node: n, isStart: false, problems: [], change: 'removed' as const })),
    ],
    edges,
  };
  const nodes: NodeRow[] = [
    ...(diff.nodes.added as FlowNode[]).map((n) => ({ id: n.id, change: 'added' as const, title: nodeTitle(n), details: [] })),
    ...removed.map((n) => ({ id: n.id, change: 'removed' as const, title: nodeTitle(n), details: [] })),
    ...diff.nodes.changed.map((c) => ({
      id: c.id,
      change: 'changed' as const,
      title: nodeTitle(c.after as FlowNode),
      details: memberChanges(c.before as FlowNode, c.after as FlowNode),
    })),
  ];
  return { model, nodes };
}

export default function FlowComparePage({ baseId, left, right }: { baseId: string; left: string; right: string }) {
  const session = useSession();
  const { records, loadError, reached, older } = useFlowRecords(session.api, baseId, [left, right]);
  const [a, b] = records && reached ? comparedPair(records, left, right) : [];
  const loadDiff = useCallback(
    (id: string, otherId: string) => session.api.request(FlowDiffDocument, { id, otherId }).then((r) => r.flowDiff),
    [session.api],
  );
  const [diff, diffError] = useServerDiff<ServerDiff>(loadDiff, a?.id, b?.id);
  const compared = useMemo(() => (diff && a && b && diff.from.id === a.id && diff.to.id === b.id ? compare(diff, a, b) : null), [diff, a, b]);

  if (loadError) return <LoadFailure error={loadError} />;
  // Records the link names but not loaded yet are on their way.
  if (!records || !reached) return <p className="muted pad">Loading…</p>;
  if (!a || !b) return <NotCompared path="flows" noun="flow" baseId={baseId} unknown={unknownRecords(records, [left, right])} />;
  return (
    <div className="page page-wide">
      <CompareHeader
        path="flows"
        title="Compare flow records"
        baseId={baseId}
        records={records}
        a={a}
        b={b}
        more={(r) => <> · {plural(r.tests.length, 'test', 'tests')}</>}
        older={older}
      />
      {diffError && (
        <p className="alert alert-error" role="alert">
          {diffError}
        </p>
      )}
      {!compared && !diffError && (
        <p className="muted" role="status">
          Comparing the records…
        </p>
      )}
      {compared && diff && (
        <>
          {(diff.start || diff.name) && (
            <ul className="compare-summary" aria-label="Other changes">
              {diff.name && (
                <li>
                  Name: {diff.name.before} → {diff.name.after}
                </li>
              )}
              {diff.start && (
                <li>
                  Start node: <code>{diff.start.before}</code> → <code>{diff.start.after}</code>
                </li>
              )}
            </ul>
          )}
          <section className="panel" aria-labelledby="compare-graph-heading">
            <div className="panel-head">
              <h2 id="compare-graph-heading">
                {recordLabel(a)} → {recordLabel(b)}
              </h2>
              <span className="legend small">
                <span className="swatch swatch-added" /> added <span className="swatch swatch-removed" /> removed <span className="swatch swatch-changed" /> changed
              </span>
            </div>
            <FlowGraph model={compared.model} label="Compared flow graph" />
          </section>
          <section className="panel" aria-labelledby="node-changes-heading">
            <div className="panel-head">
              <h2 id="node-changes-heading">Nodes</h2>
              <span className="muted small">{compared.nodes.length === 0 ? 'No difference' : plural(compared.nodes.length, 'node differs', 'nodes differ')}</span>
            </div>
            <table className="table" aria-label="Node changes">
              <thead>
                <tr>
                  <th scope="col">Node</th>
                  <th scope="col">Change</th>
                  <th scope="col">What differs</th>
                </tr>
              </thead>
              <tbody>
                {compared.nodes.map((n) => (
                  <tr key={n.id} className={`change-${n.change}`}>
                    <td>
                      <code>{n.id}</code> {n.title}
                    </td>
                    <td>{changeWords[n.change]}</td>
                    <td className="small">
                      {n.details.map((d) => (
                        <div key={d}>
                          <code>{d}</code>
                        </div>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section className="panel" aria-labelledby="edge-changes-heading">
            <div className="panel-head">
              <h2 id="edge-changes-heading">Branches</h2>
              <span className="muted small">
                {diff.edges.added.length + diff.edges.removed.length === 0
                  ? 'No difference'
                  : plural(diff.edges.added.length + diff.edges.removed.length, 'branch differs', 'branches differ')}
              </span>
            </div>
            <table className="table" aria-label="Branch changes">
              <thead>
                <tr>
                  <th scope="col">From</th>
                  <th scope="col">Branch</th>
                  <th scope="col">Change</th>
                  <th scope="col">Target</th>
                </tr>
              </thead>
              <tbody>
                {[...diff.edges.removed.map((e) => ({ e, change: 'removed' as const })), ...diff.edges.added.map((e) => ({ e, change: 'added' as const }))].map(
                  ({ e, change }) => (
                    <tr key={change + edgeKey(e)} className={`change-${change}`}>
                      <td>
                        <code>{e.from}</code>
                      </td>
                      <td>{branchWords[e.branch] ?? e.branch}</td>
                      <td>{changeWords[change]}</td>
                      <td>
                        <code>{e.to}</code>
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </section>
        </>
      )}
    </div>
  );
}
