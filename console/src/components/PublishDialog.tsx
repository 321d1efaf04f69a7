import { useEffect, useRef, useState } from 'react';
import type { ReplayFieldsFragment } from '@verdict/client';
import { errorMessage } from '../api';
import { useModal } from '../focus';
import { ReplayCounts } from './ReplayCounts';

/** A problem of the draft, in the words the editor shows it with. */
export interface PublishProblem {
  severity: 'error' | 'warning' | 'info';
  message: string;
  /** Where in the draft, when the editor points at a place. */
  where?: string;
}

const severityWord = { error: 'Error', warning: 'Warning', info: 'Note' } as const;

/**
 * Asks before publishing and shows the evidence: the problems the editor
 * knows of, and the draft replayed on the decisions its base recorded, with
 * every decision whose result would change. When the server would refuse
 * the draft (`refusal` says why), Publish is not offered and nothing is
 * replayed. Escape cancels; focus starts on Cancel, and returns to the
 * control that opened the dialog.
 */
export function PublishDialog({
  title,
  problems,
  refusal,
  replay,
  onPublish,
  onCancel,
}: {
  title: string;
  problems: PublishProblem[];
  refusal: string;
  replay: () => Promise<ReplayFieldsFragment>;
  onPublish: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [report, setReport] = useState<ReplayFieldsFragment | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useModal(ref);
  useEffect(() => {
    if (refusal) return;
    let live = true;
    replay().then(
      (r) => live && setReport(r),
      (err) => live && setFailure(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [replay, refusal]);
  return (
    <dialog ref={ref} className="dialog dialog-wide" aria-labelledby="publish-title" onCancel={(e) => { e.preventDefault(); onCancel(); }}>
      <h2 id="publish-title">{title}</h2>
      {problems.length > 0 && (
        <section aria-labelledby="problems-title" data-testid="publish-problems">
          <h3 id="problems-title">Problems</h3>
          <ul className="publish-problems">
            {problems.map((p, i) => (
              <li key={i} className={`problem-${p.severity}`}>
                {severityWord[p.severity]}: {p.message}
                {p.where && <span className="muted small"> ({p.where})</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
      {refusal && (
        <p className="alert alert-error" id="publish-refusal" role="alert">
          {refusal}
        </p>
      )}
      <section aria-labelledby="replay-title" aria-busy={!refusal && !report && !failure} data-testid="replay">
        <h3 id="replay-title">Replay on recorded decisions</h3>
        {refusal && <p className="muted">Not replayed: the draft cannot be published as it is.</p>}
        {!refusal && !report && !failure && <p role="status">Replaying the recorded decisions…</p>}
        {failure && <p role="alert">The replay failed: {failure}</p>}
        {report && report.compared === 0 && (
          <p role="status">No recorded decisions to compare: this policy or flow records none yet, or none in the range.</p>
        )}
        {report && report.compared > 0 && <ReplayCounts report={report} />}
      </section>
      <div className="actions">
        <button type="button" className="btn" onClick={onCancel} autoFocus>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" onClick={onPublish} disabled={!!refusal} aria-describedby={refusal ? 'publish-refusal' : undefined}>
          Publish
        </button>
      </div>
    </dialog>
  );
}
