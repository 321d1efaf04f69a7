import { useEffect, useRef, useState } from 'react';
import type { Notice } from '../action';
import { formatTime } from '../format';
import { Link, navigate, replaceQuery } from '../router';
import { mayChange, ownerLabel, useSession } from '../session';
import { recordLabel, standing, versionCount } from '../versions';
import { RecordPicker } from './RecordPicker';
import { ConfirmDialog } from './ConfirmDialog';
import { useTitle } from '../title';

/** The id of the notice the header shows, for a field a refusal is about to name. */
export const NOTICE_ID = 'record-notice';

interface HeaderRecord {
  id: string;
  baseId: string;
  name: string;
  status: string;
  version: number | null;
  owner: { kind: string; id: string };
  publishedAt: string | null;
  updatedAt: string;
}

/**
 * The head of a policy's or a flow's page: the record's name and status, the
 * picker of the base's records, the lifecycle's actions the signed-in role
 * may take, and the notice the last action left. `path` is where the base's
 * pages live ("policies", "flows").
 */
export function RecordHeader<R extends HeaderRecord>({
  path,
  crumb,
  newTitle,
  record,
  records,
  notice,
  busy,
  editable,
  publishable,
  saveable,
  onSave,
  onPublish,
  onNewDraft,
  onRollback,
  onDelete,
  onLoadAgain,
}: {
  path: string;
  crumb: string;
  newTitle: string;
  record: R | null;
  records: R[];
  notice: Notice | null;
  busy: boolean;
  editable: boolean;
  publishable: boolean;
  /** Whether there is something to save: a name, and a change or a record not created yet. */
  saveable: boolean;
  onSave: () => void;
  onPublish: () => void;
  onNewDraft: () => void;
  onRollback: () => void;
  onDelete: () => void;
  /** Drops the page's unsaved changes and loads the record as it is saved now (a version, once published). */
  onLoadAgain: () => void;
}) {
  const session = useSession();
  const { can } = session;
  const { compareWith, earlierVersion } = standing(records, record);
  const rollbackable = earlierVersion && can.publish;
  // A rollback publishes a new version at once, so it is confirmed first, as a publish is.
  const [confirmRollback, setConfirmRollback] = useState(false);
  const latest = versionCount(records);
  useSaveKey(editable && saveable && !busy ? onSave : null, editable);
  useTitle(record ? record.name : newTitle);
  return (
    <>
      <div className="page-head">
        <div className="title-block">
          <Link to={path} className="crumb">
            {crumb}
          </Link>
          <h1>{record ? record.name : newTitle}</h1>
          {record && (
            <span className="status">
              <span className={`badge ${record.status === 'DRAFT' ? 'badge-draft' : 'badge-published'}`}>{recordLabel(record)}</span>
              <span className="muted small">
                {ownerLabel(session, record.owner)} · {record.status === 'DRAFT' ? 'edited' : 'published'} {formatTime(record.publishedAt ?? record.updatedAt)}
              </span>
            </span>
          )}
        </div>
        <div className="actions">
          {records.length > 1 && (
            <RecordPicker id="record-pick" label="Record" records={records} value={record?.id} onPick={(id) => navigate(`${path}/${record!.baseId}?record=${id}`)} />
          )}
          {editable && (
            <button type="button" className="btn" onClick={onSave} disabled={busy || !saveable} aria-keyshortcuts="Control+S Meta+S" title="Ctrl+S">
              {record ? 'Save draft' : 'Create draft'}
            </button>
          )}
          {publishable && (
            <button type="button" className="btn btn-primary" onClick={onPublish} disabled={busy}>
              Publish
            </button>
          )}
          {record && record.status === 'PUBLISHED' && can.edit && mayChange(session, record.owner) && (
            <button type="button" className="btn" onClick={onNewDraft} disabled={busy}>
              New draft from {recordLabel(record).toLowerCase()}
            </button>
          )}
          {rollbackable && (
            <button type="button" className="btn" onClick={() => setConfirmRollback(true)} disabled={busy}>
              Roll back to this version
            </button>
          )}
          {record && compareWith && (
            <Link className="btn" to={`${path}/${record.baseId}/compare?left=${compareWith.id}&right=${record.id}`}>
              Compare with {recordLabel(compareWith).toLowerCase()}
            </Link>
          )}
          {record && can.readAudit && (
            <Link className="btn" to={`audit?base=${record.baseId}`}>
              History
            </Link>
          )}
          {record && can.delete && (
            <button type="button" className="btn btn-danger" onClick={onDelete} disabled={busy}>
              Delete
            </button>
          )}
        </div>
      </div>

      {confirmRollback && record && (
        <ConfirmDialog
          title={`Roll back to version ${record.version}?`}
          confirmLabel={`Publish version ${record.version} again`}
          onCancel={() => setConfirmRollback(false)}
          onConfirm={() => {
            setConfirmRollback(false);
            onRollback();
          }}
        >
          What version {record.version} holds is published again, at once, as version {latest + 1}, which is then what runs in place of version {latest}. Its
          stored tests must pass, as for a publish. No version is deleted: you can roll forward the same way.
        </ConfirmDialog>
      )}

      {notice && (
        <div id={NOTICE_ID} className={`alert ${notice.kind === 'ok' ? 'alert-ok' : 'alert-error'}`} role={notice.kind === 'ok' ? 'status' : 'alert'}>
          {notice.text}
          {notice.details && (
            <ul>
              {notice.details.map((d) => (
                <li key={d}>{d}</li>
              ))}
            </ul>
          )}
          {notice.stale && (
            <div className="alert-actions">
              <button
                type="button"
                className="btn btn-small"
                onClick={() => {
                  // A draft published meanwhile is a version now: the address
                  // names it, so that a draft made since does not open in its place.
                  if (notice.stale === 'published' && record) replaceQuery({ record: record.id });
                  onLoadAgain();
                }}
              >
                {notice.stale === 'published' ? 'Load the published version' : 'Load the saved draft'}
              </button>
              <span className="small">Your unsaved changes on this page are then lost: copy what you need first.</span>
            </div>
          )}
        </div>
      )}
    </>
  );
}

/**
 * Says that the record an address names is not one of the base's (it is
 * another base's, or no longer there), and which record the page shows in
 * its place: a link to a version must not pass another text off as it.
 */
export function NotThisRecord({ id, noun, shown }: { id: string; noun: string; shown: { status: string; version: number | null } }) {
  return (
    <p className="alert alert-error" role="alert">
      The address names record {id}, which is not a record of this {noun}: it belongs to another {noun}, or is no longer visible to you. Shown instead is{' '}
      {shown.status === 'DRAFT' ? `the ${noun}’s draft` : `version ${shown.version}, the ${noun}’s latest`}.
    </p>
  );
}

/**
 * Ctrl+S (⌘S) saves: save, when there is something to save. While the
 * page edits a record (active), the keys never open the browser's "Save
 * page", which would save the console instead of the draft.
 */
function useSaveKey(save: (() => void) | null, active: boolean) {
  const latest = useRef(save);
  latest.current = save;
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.key.toLowerCase() !== 's') return;
      e.preventDefault();
      latest.current?.();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [active]);
}
