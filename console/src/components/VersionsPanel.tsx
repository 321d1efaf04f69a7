import { useState } from 'react';
import type { ReactNode } from 'react';
import { formatTime } from '../format';
import { Link, navigate } from '../router';
import { authorLabel, useSession } from '../session';
import { recordLabel } from '../versions';
import { OlderVersions } from './OlderVersions';

interface ListedRecord {
  id: string;
  baseId: string;
  status: string;
  version: number | null;
  createdBy: string;
  publishedAt: string | null;
  updatedAt: string;
  tests: unknown[];
}

/**
 * A base's records as a table, two of which can be picked for a comparison.
 * `path` is where the base's pages live ("policies", "flows"); `column` is
 * one more the table shows before the tests; `older`, while the base has
 * versions older than those listed, loads the next page of them.
 */
export function VersionsPanel<R extends ListedRecord>({
  path,
  records,
  current,
  column,
  older,
}: {
  path: string;
  records: R[];
  current: R | null;
  column?: { heading: string; cell: (r: R) => ReactNode };
  older?: (() => Promise<void>) | null;
}) {
  const session = useSession();
  const [picked, setPicked] = useState<string[]>([]);
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  const base = current?.baseId ?? '';
  // Older record on the left.
  const ordered = records.filter((r) => picked.includes(r.id)).reverse();
  return (
    <section className="panel" aria-labelledby="versions-heading">
      <div className="panel-head">
        <h2 id="versions-heading">Versions</h2>
        <button
          type="button"
          className="btn btn-primary"
          disabled={ordered.length !== 2}
          onClick={() => navigate(`${path}/${base}/compare?left=${ordered[0]!.id}&right=${ordered[1]!.id}`)}
        >
          Compare selected
        </button>
      </div>
      <table className="table" aria-label="Versions">
        <thead>
          <tr>
            <th scope="col">Compare</th>
            <th scope="col">Record</th>
            <th scope="col">Time</th>
            <th scope="col">Author</th>
            {column && <th scope="col">{column.heading}</th>}
            <th scope="col">Tests</th>
          </tr>
        </thead>
        <tbody>
          {records.map((r) => (
            <tr key={r.id} aria-current={r.id === current?.id ? 'true' : undefined}>
              <td>
                <input type="checkbox" checked={picked.includes(r.id)} onChange={() => toggle(r.id)} aria-label={`Select ${recordLabel(r)} to compare`} />
              </td>
              <td>
                <Link to={`${path}/${r.baseId}?record=${r.id}`}>{recordLabel(r)}</Link>
              </td>
              <td>{formatTime(r.publishedAt ?? r.updatedAt)}</td>
              <td>{authorLabel(session, r.createdBy)}</td>
              {column && <td>{column.cell(r)}</td>}
              <td>{r.tests.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="older-versions">
        <OlderVersions older={older} />
      </div>
    </section>
  );
}
