import type { ReactNode } from 'react';
import { formatTime } from '../format';
import { Link, navigate } from '../router';
import { authorLabel, useSession } from '../session';
import { recordLabel } from '../versions';
import { OlderVersions } from './OlderVersions';
import { RecordPicker } from './RecordPicker';
import { useTitle } from '../title';

interface ComparedRecord {
  id: string;
  name: string;
  status: string;
  version: number | null;
  createdBy: string;
  publishedAt: string | null;
  updatedAt: string;
}

/**
 * The head of a comparison of two records of one base: a picker for each
 * side, and a card for each record. `path` is where the base's pages live
 * ("policies", "flows"); `more` adds to a card's line of time and author.
 * The pickers offer the records loaded; `older`, while the base has
 * versions older than those, loads the next page of them.
 */
export function CompareHeader<R extends ComparedRecord>({
  path,
  title,
  baseId,
  records,
  a,
  b,
  more,
  older,
}: {
  path: string;
  title: string;
  baseId: string;
  records: R[];
  a: R;
  b: R;
  more?: (r: R) => ReactNode;
  older?: (() => Promise<void>) | null;
}) {
  const session = useSession();
  useTitle(`${title}: ${b.name}`);
  const pick = (side: 'left' | 'right', id: string) =>
    navigate(`${path}/${baseId}/compare?left=${side === 'left' ? id : a.id}&right=${side === 'right' ? id : b.id}`, { replace: true });
  return (
    <>
      <div className="page-head">
        <div className="title-block">
          <Link to={`${path}/${baseId}`} className="crumb">
            {b.name}
          </Link>
          <h1>{title}</h1>
        </div>
        <div className="actions">
          {(['left', 'right'] as const).map((side) => (
            <RecordPicker
              key={side}
              id={`pick-${side}`}
              label={side === 'left' ? 'Left' : 'Right'}
              records={records}
              value={(side === 'left' ? a : b).id}
              onPick={(id) => pick(side, id)}
            />
          ))}
          <OlderVersions older={older} />
        </div>
      </div>
      <div className="compare-meta">
        {[a, b].map((r, i) => (
          <div key={i} className="card">
            <strong>{recordLabel(r)}</strong> — {r.name}
            <div className="muted small">
              {formatTime(r.publishedAt ?? r.updatedAt)} · {authorLabel(session, r.createdBy)}
              {more?.(r)}
            </div>
          </div>
        ))}
      </div>
    </>
  );
}

/**
 * Why a comparison shows nothing: the records its link names that are not
 * the base's (another policy's, say, or one deleted since), each by its id.
 */
export function NotCompared({ path, noun, baseId, unknown }: { path: string; noun: string; baseId: string; unknown: string[] }) {
  let text = 'Nothing to compare.';
  if (unknown.length === 1) {
    text = `Nothing is compared: the link names record ${unknown[0]}, which is not a record of this ${noun}. It belongs to another ${noun}, or is no longer visible to you.`;
  } else if (unknown.length > 1) {
    text = `Nothing is compared: the link names records ${unknown.join(' and ')}, which are not records of this ${noun}. They belong to another ${noun}, or are no longer visible to you.`;
  }
  return (
    <div className="page">
      <p className="alert alert-error" role="alert">
        {text}
      </p>
      <Link to={`${path}/${baseId}/compare`}>Compare this {noun}’s latest records</Link>
    </div>
  );
}
