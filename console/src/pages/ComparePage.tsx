import { useCallback } from 'react';
import { diffLines } from 'diff';
import { PolicyDiffDocument } from '@verdict/client';
import type { PolicyDiffQuery } from '@verdict/client';
import { useSession } from '../session';
import { useServerDiff } from '../serverDiff';
import { comparedPair, recordLabel, unknownRecords } from '../versions';
import { usePolicyRecords } from '../records';
import { CompareHeader, NotCompared } from '../components/CompareHeader';
import { LoadFailure } from '../components/LoadFailure';

interface Row {
  left: string | null;
  right: string | null;
  kind: 'same' | 'removed' | 'added' | 'changed';
}

/** Side-by-side rows of a line diff: removed lines face the added lines that replace them. */
export function sideBySide(a: string, b: string): Row[] {
  const rows: Row[] = [];
  const parts = diffLines(a, b);
  const lines = (v: string) => v.replace(/\n$/, '').split('\n');
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (!p.added && !p.removed) {
      for (const l of lines(p.value)) rows.push({ left: l, right: l, kind: 'same' });
      continue;
    }
    if (p.removed && parts[i + 1]?.added) {
      const left = lines(p.value);
      const right = lines(parts[i + 1]!.value);
      for (let j = 0; j < Math.max(left.length, right.length); j++) {
        const l = left[j] ?? null;
        const r = right[j] ?? null;
        rows.push({ left: l, right: r, kind: l === null ? 'added' : r === null ? 'removed' : 'changed' });
      }
      i++;
      continue;
    }
    for (const l of lines(p.value)) rows.push(p.added ? { left: null, right: l, kind: 'added' } : { left: l, right: null, kind: 'removed' });
  }
  return rows;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function DiffTable({ caption, a, b, leftName, rightName }: { caption: string; a: string; b: string; leftName: string; rightName: string }) {
  const rows = sideBySide(a, b);
  const same = rows.every((r) => r.kind === 'same');
  return (
    <section className="panel" aria-label={caption}>
      <div className="panel-head">
        <h2>{caption}</h2>
        <span className="muted small">{same ? 'No difference' : plural(rows.filter((r) => r.kind !== 'same').length, 'line differs', 'lines differ')}</span>
      </div>
      <table className="diff">
        <colgroup>
          <col className="sign-col" />
          <col />
          <col className="sign-col" />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th scope="col" colSpan={2}>{leftName}</th>
            <th scope="col" colSpan={2}>{rightName}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} className={`diff-${r.kind}`}>
              <td className="sign" aria-hidden="true">{r.kind === 'removed' || r.kind === 'changed' ? '−' : ''}</td>
              <td className="left">
                {r.kind !== 'same' && r.left !== null && <span className="sr-only">removed: </span>}
                <code>{r.left ?? ''}</code>
              </td>
              <td className="sign" aria-hidden="true">{r.kind === 'added' || r.kind === 'changed' ? '+' : ''}</td>
              <td className="right">
                {r.kind !== 'same' && r.right !== null && <span className="sr-only">added: </span>}
                <code>{r.right ?? ''}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

type ServerDiff = NonNullable<PolicyDiffQuery['policyDiff']>;
type StoredTest = { name: string; data: unknown; expect: boolean };

function testText(t: StoredTest | null): string {
  return t ? `expect ${t.expect}: ${JSON.stringify(t.data)}` : '';
}

function jsonText(v: unknown): string {
  return v === undefined || v === null ? '' : JSON.stringify(v);
}

/** The stored tests compared by name, as the server's diff reports them. */
function TestsDiff({ diff, leftName, rightName }: { diff: ServerDiff['tests']; leftName: string; rightName: string }) {
  const rows = [
    ...diff.removed.map((t) => ({ name: t.name, kind: 'removed', before: t as StoredTest | null, after: null as StoredTest | null })),
    ...diff.added.map((t) => ({ name: t.name, kind: 'added', before: null, after: t })),
    ...diff.changed.map((c) => ({ name: c.name, kind: 'changed', before: c.before, after: c.after })),
  ];
  return (
    <section className="panel" aria-label="Tests">
      <div className="panel-head">
        <h2>Tests</h2>
        <span className="muted small">{rows.length === 0 ? 'No difference' : plural(rows.length, 'test differs', 'tests differ')}</span>
      </div>
      {rows.length > 0 && (
        <table className="table table-compact" aria-label="Test changes">
          <thead>
            <tr>
              <th scope="col">Test</th>
              <th scope="col">Change</th>
              <th scope="col">{leftName}</th>
              <th scope="col">{rightName}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.kind + r.name} className={`diff-${r.kind}`}>
                <td>{r.name}</td>
                <td>{r.kind}</td>
                <td><code>{testText(r.before)}</code></td>
                <td><code>{testText(r.after)}</code></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The JSON Schema's changes by path, as the server's diff reports them. */
function SchemaDiff({ changes, leftName, rightName }: { changes: ServerDiff['schema']; leftName: string; rightName: string }) {
  return (
    <section className="panel" aria-label="Schema">
      <div className="panel-head">
        <h2>Schema</h2>
        <span className="muted small">{changes.length === 0 ? 'No difference' : plural(changes.length, 'path differs', 'paths differ')}</span>
      </div>
      {changes.length > 0 && (
        <table className="table table-compact" aria-label="Schema changes">
          <thead>
            <tr>
              <th scope="col">Path</th>
              <th scope="col">Change</th>
              <th scope="col">{leftName}</th>
              <th scope="col">{rightName}</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((c) => (
              <tr key={c.path}>
                <td><code>{c.path}</code></td>
                <td>{c.change.toLowerCase()}</td>
                <td><code>{jsonText(c.before)}</code></td>
                <td><code>{jsonText(c.after)}</code></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export default function ComparePage({ baseId, left, right }: { baseId: string; left: string; right: string }) {
  const session = useSession();
  const { records, loadError, reached, older } = usePolicyRecords(session.api, baseId, [left, right]);
  const [a, b] = records && reached ? comparedPair(records, left, right) : [];
  // The tests and the schema are compared by the server, which knows how
  // tests pair up by name and how JSON values compare.
  const loadDiff = useCallback(
    (id: string, otherId: string) => session.api.request(PolicyDiffDocument, { id, otherId }).then((r) => r.policyDiff),
    [session.api],
  );
  const [diff, diffError] = useServerDiff<ServerDiff>(loadDiff, a?.id, b?.id);
  if (loadError) return <LoadFailure error={loadError} />;
  // Records the link names but not loaded yet are on their way.
  if (!records || !reached) return <p className="muted pad">Loading…</p>;
  if (!a || !b) return <NotCompared path="policies" noun="policy" baseId={baseId} unknown={unknownRecords(records, [left, right])} />;
  return (
    <div className="page page-wide">
      <CompareHeader path="policies" title="Compare records" baseId={baseId} records={records} a={a} b={b} older={older} />
      <DiffTable caption="Rule text" a={a.rule} b={b.rule} leftName={recordLabel(a)} rightName={recordLabel(b)} />
      {diffError && <p className="alert alert-error" role="alert">The tests and schema could not be compared: {diffError}</p>}
      {!diff && !diffError && <p className="muted" role="status">Comparing the tests and the schema…</p>}
      {diff && (
        <>
          <TestsDiff diff={diff.tests} leftName={recordLabel(a)} rightName={recordLabel(b)} />
          <SchemaDiff changes={diff.schema} leftName={recordLabel(a)} rightName={recordLabel(b)} />
        </>
      )}
    </div>
  );
}
