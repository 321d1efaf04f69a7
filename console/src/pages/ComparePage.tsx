import { useCallback } from 'react';
import { PolicyDiffDocument } from '@verdict/client';
import type { PolicyDiffQuery } from '@verdict/client';
import { plural } from '../format';
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

type ServerDiff = NonNullable<PolicyDiffQuery['policyDiff']>;
type Hunk = ServerDiff['rule'][number];

/** A text's lines as the server's diff numbers them: a final line break ends the last line. */
function linesOf(text: string): string[] {
  return text === '' ? [] : text.replace(/\n$/, '').split('\n').map((l) => l.replace(/\r$/, ''));
}

/**
 * The whole of the first text beside the second, from the server's hunks:
 * the lines between hunks are the same in both, and within a hunk the
 * removed lines face the added lines that replace them. The server bounds
 * its search for the changes; a search here, in the page, took seconds for
 * rules of a few thousand lines that differ throughout.
 */
export function sideBySide(a: string, hunks: Hunk[]): Row[] {
  const left = linesOf(a);
  const rows: Row[] = [];
  let at = 0;
  const same = (text: string) => rows.push({ left: text, right: text, kind: 'same' });
  for (const h of hunks) {
    for (; at < h.fromLine - 1; at++) same(left[at]!);
    for (let i = 0; i < h.lines.length; ) {
      if (h.lines[i]!.kind === 'CONTEXT') {
        same(h.lines[i++]!.text);
        continue;
      }
      const removed: string[] = [];
      const added: string[] = [];
      for (; i < h.lines.length && h.lines[i]!.kind === 'REMOVED'; i++) removed.push(h.lines[i]!.text);
      for (; i < h.lines.length && h.lines[i]!.kind === 'ADDED'; i++) added.push(h.lines[i]!.text);
      for (let j = 0; j < Math.max(removed.length, added.length); j++) {
        const l = removed[j] ?? null;
        const r = added[j] ?? null;
        rows.push({ left: l, right: r, kind: l === null ? 'added' : r === null ? 'removed' : 'changed' });
      }
    }
    at = h.fromLine - 1 + h.fromCount;
  }
  for (; at < left.length; at++) same(left[at]!);
  return rows;
}

function DiffTable({ caption, a, hunks, leftName, rightName }: { caption: string; a: string; hunks: Hunk[]; leftName: string; rightName: string }) {
  const rows = sideBySide(a, hunks);
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
  // The server compares the records: it bounds its search for the rule
  // text's changes, and knows how tests pair up by name and how JSON
  // values compare.
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
      {diffError && <p className="alert alert-error" role="alert">The records could not be compared: {diffError}</p>}
      {!diff && !diffError && <p className="muted" role="status">Comparing the rule text, the tests and the schema…</p>}
      {diff && (
        <>
          <DiffTable caption="Rule text" a={a.rule} hunks={diff.rule} leftName={recordLabel(a)} rightName={recordLabel(b)} />
          <TestsDiff diff={diff.tests} leftName={recordLabel(a)} rightName={recordLabel(b)} />
          <SchemaDiff changes={diff.schema} leftName={recordLabel(a)} rightName={recordLabel(b)} />
        </>
      )}
    </div>
  );
}
