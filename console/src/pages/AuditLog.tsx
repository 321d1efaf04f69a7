import { Fragment, useCallback, useState } from 'react';
import { AuditEventsDocument } from '@verdict/client';
import type { AuditAction, AuditFilter, AuditKind } from '@verdict/client';
import { enumWord, formatJSON, formatTime } from '../format';
import { Link } from '../router';
import { useSession } from '../session';
import { Pager, usePages } from '../components/Pager';

const actions: AuditAction[] = ['CREATED', 'EDITED', 'PUBLISHED', 'ASSIGNED', 'EXECUTED', 'DELETED'];
const kinds: AuditKind[] = ['POLICY', 'FLOW', 'GROUP', 'MEMBER', 'KEY'];

/** A datetime-local value as an instant, in the browser's time zone. */
function instant(local: string): string | null {
  if (!local) return null;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

interface Filters {
  action: string;
  kind: string;
  base: string;
  actor: string;
  since: string;
  until: string;
}

export function AuditLog({ params }: { params: URLSearchParams }) {
  const session = useSession();
  const { api } = session;
  const [draft, setDraft] = useState<Filters>(() => ({
    action: params.get('action') ?? '',
    kind: params.get('kind') ?? '',
    base: params.get('base') ?? '',
    actor: params.get('actor') ?? '',
    since: '',
    until: '',
  }));
  const [applied, setApplied] = useState(draft);
  const [open, setOpen] = useState<string | null>(null);

  const load = useCallback(
    async (after: string | null) => {
      const filter: AuditFilter = {
        action: (applied.action || null) as AuditAction | null,
        kind: (applied.kind || null) as AuditKind | null,
        baseId: applied.base.trim() || null,
        actor: applied.actor.trim() || null,
        since: instant(applied.since),
        until: instant(applied.until),
      };
      return (await api.request(AuditEventsDocument, { first: 25, after, filter })).auditEvents;
    },
    [api, applied],
  );
  const pages = usePages(load);
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));

  return (
    <div className="page page-wide">
      <div className="page-head">
        <h1>Audit log</h1>
      </div>
      <form
        className="filters filters-wrap"
        role="search"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(draft);
        }}
      >
        <div className="field">
          <label htmlFor="audit-action">Action</label>
          <select id="audit-action" value={draft.action} onChange={set('action')}>
            <option value="">Any action</option>
            {actions.map((a) => (
              <option key={a} value={a}>
                {enumWord(a)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-kind">Kind</label>
          <select id="audit-kind" value={draft.kind} onChange={set('kind')}>
            <option value="">Any kind</option>
            {kinds.map((k) => (
              <option key={k} value={k}>
                {enumWord(k)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-base">Policy or flow (base id)</label>
          <input id="audit-base" value={draft.base} onChange={set('base')} spellCheck={false} />
        </div>
        <div className="field">
          <label htmlFor="audit-actor">Actor (user or key id)</label>
          <input id="audit-actor" value={draft.actor} onChange={set('actor')} spellCheck={false} />
        </div>
        <div className="field">
          <label htmlFor="audit-since">From</label>
          <input id="audit-since" type="datetime-local" value={draft.since} onChange={set('since')} />
        </div>
        <div className="field">
          <label htmlFor="audit-until">Until</label>
          <input id="audit-until" type="datetime-local" value={draft.until} onChange={set('until')} />
        </div>
        <div className="actions">
          <button type="submit" className="btn btn-primary">
            Apply filters
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => {
              const none = { action: '', kind: '', base: '', actor: '', since: '', until: '' };
              setDraft(none);
              setApplied(none);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      {pages.error && (
        <p className="alert alert-error" role="alert">
          {pages.error}
        </p>
      )}
      <table className="table" aria-label="Audit events" aria-busy={pages.items === null && !pages.error}>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Action</th>
            <th scope="col">Kind</th>
            <th scope="col">About</th>
            <th scope="col">Actor</th>
            <th scope="col">
              <span className="sr-only">Details</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {pages.items?.map((e) => (
            <Fragment key={e.id}>
              <tr>
                <td>{formatTime(e.at)}</td>
                <td>
                  <span className="badge badge-label">{enumWord(e.action)}</span>
                </td>
                <td>{enumWord(e.kind)}</td>
                <td>
                  {e.baseId && (e.kind === 'POLICY' || e.kind === 'FLOW') ? (
                    <Link to={`${e.kind === 'POLICY' ? 'policies' : 'flows'}/${e.baseId}`}>{e.baseId}</Link>
                  ) : e.groupId ? (
                    <Link to={`groups/${e.groupId}`}>Group {e.groupId}</Link>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <td>
                  {e.actor.kind === 'KEY' ? 'Key ' : ''}
                  <code className="small">{e.actor.id === session.viewer.user?.id ? 'you' : e.actor.id}</code>
                </td>
                <td>
                  <button
                    type="button"
                    className="btn btn-ghost btn-small"
                    aria-expanded={open === e.id}
                    aria-controls={`details-${e.id}`}
                    onClick={() => setOpen(open === e.id ? null : e.id)}
                  >
                    {open === e.id ? 'Hide details' : 'Details'}
                  </button>
                </td>
              </tr>
              {open === e.id && (
                <tr id={`details-${e.id}`}>
                  <td colSpan={6}>
                    <dl className="details">
                      <dt>Event</dt>
                      <dd>
                        <code>{e.id}</code>
                      </dd>
                      {e.recordId && (
                        <>
                          <dt>Record</dt>
                          <dd>
                            <code>{e.recordId}</code>
                          </dd>
                        </>
                      )}
                      <dt>Details</dt>
                      <dd>
                        <pre className="json">{formatJSON(e.details)}</pre>
                      </dd>
                    </dl>
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
          {pages.items?.length === 0 && (
            <tr>
              <td colSpan={6} className="muted empty">
                No event matches.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <Pager pages={pages} />
    </div>
  );
}
