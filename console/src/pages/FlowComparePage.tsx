import { useEffect, useMemo, useState } from 'react';
import { FlowVersionsDocument } from '@verdict/client';
import type { FlowFieldsFragment } from '@verdict/client';
import { errorMessage } from '../api';
import { formatTime } from '../format';
import { Link, navigate } from '../router';
import { authorLabel, useSession } from '../session';
import { asDefinition, startOf } from '../flows/definition';
import type { FlowNode } from '../flows/definition';
import { diffDefinitions } from '../flows/diff';
import type { Change } from '../flows/diff';
import { FlowGraph } from '../flows/FlowGraph';
import type { GraphModel } from '../flows/FlowGraph';
import { flowRecordLabel } from './FlowPage';

type Rec = FlowFieldsFragment;

const changeWords: Record<Change, string> = { added: 'Added', removed: 'Removed', changed: 'Changed', same: 'Unchanged' };

export default function FlowComparePage({ baseId, left, right }: { baseId: string; left: string; right: string }) {
  const session = useSession();
  const [records, setRecords] = useState<Rec[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    session.api.request(FlowVersionsDocument, { id: baseId }).then(
      (r) =>
        r.flowVersions
          ? setRecords([...(r.flowVersions.draft ? [r.flowVersions.draft] : []), ...r.flowVersions.versions])
          : setError('There is no such flow: it was deleted, or it is not visible to you.'),
      (err) => setError(errorMessage(err)),
    );
  }, [session.api, baseId]);

  const a = records?.find((r) => r.id === left) ?? records?.[1] ?? records?.[0];
  const b = records?.find((r) => r.id === right) ?? records?.[0];
  const compared = useMemo(() => {
    if (!a || !b) return null;
    const da = asDefinition(a.definition);
    const db = asDefinition(b.definition);
    const diff = diffDefinitions(da, db);
    // One graph of both: the right record's nodes, and the left's that it
    // no longer has; every branch of either, marked by what happened to it.
    const nodeOf = new Map<string, FlowNode>([...da.nodes.map((n) => [n.id, n] as const), ...db.nodes.map((n) => [n.id, n] as const)]);
    const start = startOf(db) ?? startOf(da);
    const model: GraphModel = {
      nodes: diff.nodes.map((c) => ({ id: c.id, node: nodeOf.get(c.id)!, isStart: c.id === start, problems: [], change: c.change })),
      edges: diff.edges.flatMap((e) => {
        const handle = e.handle as 'true' | 'false' | 'next';
        if (e.change === 'changed') {
          return [
            { id: `${e.key}:from`, source: e.source, target: e.from!, handle, problems: [], change: 'removed' as const },
            { id: `${e.key}:to`, source: e.source, target: e.to!, handle, problems: [], change: 'added' as const },
          ];
        }
        return [{ id: e.key, source: e.source, target: (e.to ?? e.from)!, handle, problems: [], change: e.change }];
      }),
    };
    return { diff, model };
  }, [a, b]);

  if (error) {
    return (
      <div className="page">
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      </div>
    );
  }
  if (!records) return <p className="muted pad">Loading…</p>;
  if (!a || !b || !compared) return <p className="pad">Nothing to compare.</p>;
  const pick = (side: 'left' | 'right', id: string) =>
    navigate(`flows/${baseId}/compare?left=${side === 'left' ? id : a.id}&right=${side === 'right' ? id : b.id}`, { replace: true });
  const { diff, model } = compared;
  const changedNodes = diff.nodes.filter((n) => n.change !== 'same');
  const changedEdges = diff.edges.filter((e) => e.change !== 'same');
  return (
    <div className="page page-wide">
      <div className="page-head">
        <div className="title-block">
          <Link to={`flows/${baseId}`} className="crumb">
            {b.name}
          </Link>
          <h1>Compare flow records</h1>
        </div>
        <div className="actions">
          {(['left', 'right'] as const).map((side) => (
            <div key={side} className="field field-inline">
              <label htmlFor={`pick-${side}`}>{side === 'left' ? 'Left' : 'Right'}</label>
              <select id={`pick-${side}`} value={(side === 'left' ? a : b).id} onChange={(e) => pick(side, e.target.value)}>
                {records.map((r) => (
                  <option key={r.id} value={r.id}>
                    {flowRecordLabel(r)}
                  </option>
                ))}
              </select>
            </div>
          ))}
        </div>
      </div>
      <div className="compare-meta">
        {[a, b].map((r, i) => (
          <div key={i} className="card">
            <strong>{flowRecordLabel(r)}</strong> — {r.name}
            <div className="muted small">
              {formatTime(r.publishedAt ?? r.updatedAt)} · {authorLabel(session, r.createdBy)} · {r.tests.length} test(s)
            </div>
          </div>
        ))}
      </div>
      <section className="panel" aria-labelledby="compare-graph-heading">
        <div className="panel-head">
          <h2 id="compare-graph-heading">
            {flowRecordLabel(a)} → {flowRecordLabel(b)}
          </h2>
          <span className="legend small">
            <span className="swatch swatch-added" /> added <span className="swatch swatch-removed" /> removed <span className="swatch swatch-changed" /> changed
          </span>
        </div>
        <FlowGraph model={model} label="Compared flow graph" />
      </section>
      <section className="panel" aria-labelledby="node-changes-heading">
        <div className="panel-head">
          <h2 id="node-changes-heading">Nodes</h2>
          <span className="muted small">{changedNodes.length === 0 ? 'No difference' : `${changedNodes.length} node(s) differ`}</span>
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
            {changedNodes.map((n) => (
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
          <span className="muted small">{changedEdges.length === 0 ? 'No difference' : `${changedEdges.length} branch(es) differ`}</span>
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
            {changedEdges.map((e) => (
              <tr key={e.key} className={`change-${e.change}`}>
                <td>
                  <code>{e.source}</code>
                </td>
                <td>{e.handle}</td>
                <td>{changeWords[e.change]}</td>
                <td>
                  {e.change === 'changed' ? (
                    <>
                      <code>{e.from}</code> → <code>{e.to}</code>
                    </>
                  ) : (
                    <code>{e.to ?? e.from}</code>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
