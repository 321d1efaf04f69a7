import { Fragment, useCallback, useEffect, useState } from 'react';
import { AuditEventsDocument } from '@verdict/client';
import type { AuditAction, AuditEventFieldsFragment, AuditFilter, AuditKind } from '@verdict/client';
import { enumWord, formatJSON, formatTime, instant, isInstant, rangeProblem } from '../format';
import { Link, replaceQuery, useLocation } from '../router';
import { useSession } from '../session';
import { PagesError, Pager, pagedTable, useAddressPages } from '../components/Pager';
import { actionWord, subjectOf, useAuditNames } from '../auditNames';
import type { Subject } from '../auditNames';
import { useTitle } from '../title';
import { invalidField, refusedField } from '../components/FieldError';

const actions: AuditAction[] = ['CREATED', 'EDITED', 'PUBLISHED', 'ASSIGNED', 'EXECUTED', 'DELETED'];
const kinds: AuditKind[] = ['POLICY', 'FLOW', 'GROUP', 'MEMBER', 'KEY'];

/** An instant as a datetime-local value, in the browser's time zone; '' for none. */
function localTime(at: string): string {
  const d = new Date(at);
  if (!at || Number.isNaN(d.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

// The filters, by their names in the address's query: since and until
// there are instants, as the server takes them, and local times in the form.
const filterNames = ['action', 'kind', 'base', 'actor', 'since', 'until'] as const;
type Filters = Record<(typeof filterNames)[number], string>;

const noFilters: Filters = { action: '', kind: '', base: '', actor: '', since: '', until: '' };

/**
 * The filters of an address's query, without its page: a change of the page
 * alone leaves it as it is. An action or kind written by hand in another
 * case (`action=executed`) is read as the one it names.
 */
function appliedIn(params: URLSearchParams): string {
  const applied = new URLSearchParams();
  for (const n of filterNames) {
    let value = params.get(n);
    if (value && (n === 'action' || n === 'kind')) {
      value = (n === 'action' ? actions : kinds).find((v) => v === value!.toUpperCase()) ?? value;
    }
    if (value) applied.set(n, value);
  }
  return applied.toString();
}

/** The value of an enum filter, or a refusal in words of one the log does not have. */
function enumFilter<T extends string>(name: string, values: readonly T[], value: string | null): T | null {
  if (!value) return null;
  if ((values as readonly string[]).includes(value)) return value as T;
  throw new Error(`The address asks for the ${name} “${value}”, which the audit log does not have; choose one under ${name === 'action' ? 'Action' : 'Kind'}.`);
}

/** The value of a time filter, or a refusal in words of one that is not a time as the server takes it. */
function timeFilter(name: 'since' | 'until', value: string | null): string | null {
  if (!value) return null;
  if (isInstant(value)) return value;
  const field = name === 'since' ? 'From' : 'Until';
  throw new Error(
    `The address’s ${field} time “${value}” is not a time: an address writes one as 2027-01-31T09:30:00Z, in UTC, or with its offset from UTC as 2027-01-31T10:30:00+01:00; choose one under ${field}.`,
  );
}

/** Applied filters as the form shows them. */
function formOf(applied: string): Filters {
  const query = new URLSearchParams(applied);
  const f = Object.fromEntries(filterNames.map((n) => [n, query.get(n) ?? ''])) as Filters;
  return { ...f, since: localTime(f.since), until: localTime(f.until) };
}

export function AuditLog() {
  const { api } = useSession();
  useTitle('Audit log');
  const { params } = useLocation();
  const applied = appliedIn(params);
  const [draft, setDraft] = useState<Filters>(() => formOf(applied));
  // The form shows what is applied, also after a link to other filters.
  useEffect(() => setDraft(formOf(applied)), [applied]);
  const [open, setOpen] = useState<string | null>(null);

  const load = useCallback(
    async (after: string | null) => {
      const f = new URLSearchParams(applied);
      const since = timeFilter('since', f.get('since'));
      const until = timeFilter('until', f.get('until'));
      const problem = rangeProblem(since ?? '', until ?? '');
      if (problem) throw new Error(problem);
      const filter: AuditFilter = {
        action: enumFilter('action', actions, f.get('action')),
        kind: enumFilter('kind', kinds, f.get('kind')),
        baseId: f.get('base') || null,
        actor: f.get('actor') || null,
        since,
        until,
      };
      return (await api.request(AuditEventsDocument, { first: 25, after, filter })).auditEvents;
    },
    [api, applied],
  );
  const pages = useAddressPages(load);
  const names = useAuditNames(pages.items);
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));
  // The filter a refused address is about, which names the refusal.
  const refused = refusedField(pages.error, {
    'audit-action': /asks for the action/,
    'audit-kind': /asks for the kind/,
    'audit-since': /From time/,
    'audit-until': /Until time|^Until must be later than From/,
  });
  const invalid = (field: string) => invalidField(refused === field && 'audit-refusal');
  const apply = (f: Filters) =>
    replaceQuery({ ...f, base: f.base.trim(), actor: f.actor.trim(), since: instant(f.since), until: instant(f.until), after: [] });

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
          apply(draft);
        }}
      >
        <div className="field">
          <label htmlFor="audit-action">Action</label>
          <select id="audit-action" value={draft.action} onChange={set('action')} {...invalid('audit-action')}>
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
          <select id="audit-kind" value={draft.kind} onChange={set('kind')} {...invalid('audit-kind')}>
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
          <input id="audit-since" type="datetime-local" value={draft.since} onChange={set('since')} {...invalid('audit-since')} />
        </div>
        <div className="field">
          <label htmlFor="audit-until">Until</label>
          <input id="audit-until" type="datetime-local" value={draft.until} onChange={set('until')} {...invalid('audit-until')} />
        </div>
        <div className="actions">
          <button type="submit" className="btn btn-primary">
            Apply filters
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => {
              setDraft(noFilters);
              apply(noFilters);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <PagesError pages={pages} id="audit-refusal" />
      <table {...pagedTable(pages)} aria-label="Audit events">
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
                  <span className="badge badge-label">{actionWord(e)}</span>
                </td>
                <td>{enumWord(e.kind)}</td>
                <td>
                  <SubjectCell subject={subjectOf(e)} names={names} />
                </td>
                <td>
                  <ActorCell actor={e.actor} names={names} />
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
                    <span className="sr-only"> of {eventWords(e, names)}</span>
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
                      <dt>Actor</dt>
                      <dd>
                        <code>{e.actor.id}</code>
                      </dd>
                      {e.recordId && (
                        <>
                          <dt>Record</dt>
                          <dd>
                            <code>{e.recordId}</code>
                          </dd>
                        </>
                      )}
                      {decisionOf(e) && (
                        <>
                          <dt>Decision</dt>
                          <dd>
                            <Link to={`decisions/${decisionOf(e)}`}>Open the recorded decision</Link>
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
                {pages.hasNext
                  ? 'No event matches among those this page read; the next page reads further back.'
                  : 'No event matches.'}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <Pager pages={pages} />
    </div>
  );
}

/**
 * An event as a row's button names it, which tells it from the other rows':
 * what was done, to what and when ("edited policy Loans, 3 Mar 2027, 09:30:15").
 */
function eventWords(e: AuditEventFieldsFragment, names: Map<string, string>): string {
  const subject = subjectOf(e);
  const name = subject && names.get(subject.id);
  return `${actionWord(e).toLowerCase()} ${enumWord(e.kind).toLowerCase()}${name ? ` ${name}` : ''}, ${formatTime(e.at, true)}`;
}

/** The decision record an `executed` event names, if it names one. */
function decisionOf(e: AuditEventFieldsFragment): string | null {
  const id = (e.details as { decisionId?: unknown } | null)?.decisionId;
  return typeof id === 'string' ? id : null;
}

const subjectWords: Record<Subject['kind'], string> = { policy: 'Policy', flow: 'Flow', group: 'Group', member: 'User', key: 'Key' };

/** The console's page of each kind of subject that has one. */
const subjectPages: Partial<Record<Subject['kind'], string>> = { policy: 'policies', flow: 'flows', group: 'groups' };

/** What an event is about, by name where one is known; its id is the link's or the text's title. */
function SubjectCell({ subject, names }: { subject: Subject | null; names: Map<string, string> }) {
  if (!subject) return <span className="muted">—</span>;
  const name = names.get(subject.id);
  const title = `${subjectWords[subject.kind]} ${subject.id}`;
  const shown = name ?? <code className="small">{subject.id}</code>;
  const page = subjectPages[subject.kind];
  if (!page) return <span title={title}>{shown}</span>;
  return (
    <Link to={`${page}/${subject.id}`} title={title}>
      {shown}
    </Link>
  );
}

/**
 * Who caused an event, by name where one is known: a link to their events
 * alone, titled with their id. The operator, who changed members or keys
 * with `verdict admin`, is neither a user nor a key, and has no name.
 */
function ActorCell({ actor, names }: { actor: AuditEventFieldsFragment['actor']; names: Map<string, string> }) {
  const { viewer } = useSession();
  if (actor.kind === 'OPERATOR') {
    return (
      <Link to={`audit?actor=${actor.id}`} title="The operator, with verdict admin on the database: show only their events">
        Operator
      </Link>
    );
  }
  const isKey = actor.kind === 'KEY';
  const name = actor.id === viewer.user?.id ? 'you' : names.get(actor.id);
  return (
    <Link to={`audit?actor=${actor.id}`} title={`${isKey ? 'Key' : 'User'} ${actor.id}: show only their events`}>
      {isKey && 'Key '}
      {name === undefined ? <code className="small">{actor.id}</code> : isKey ? `“${name}”` : name}
    </Link>
  );
}
