// The Decisions tab of a policy or a flow: whether its stored runs are
// recorded (and which values are masked first), and the decisions it
// recorded, each opened with its run done again on the stored input.
import { useCallback, useEffect, useState } from 'react';
import {
  DecisionDocument,
  DecisionsDocument,
  FlowDecisionRecordsDocument,
  PolicyDecisionRecordsDocument,
  ReplayFlowDocument,
  ReplayPolicyDocument,
  SetDecisionRecordsDocument,
} from '@verdict/client';
import type { DecisionFieldsFragment, DecisionQuery, DecisionRecordSettingsFieldsFragment, ReplayFieldsFragment } from '@verdict/client';
import { VerdictError, errorMessage, refusedId, saysUnreachable } from '../api';
import { useTries } from '../reconnect';
import { formatJSON, formatTime, instant, rangeProblem } from '../format';
import { authorLabel, mayChange, useSession } from '../session';
import { recordLabel } from '../versions';
import type { Session } from '../session';
import { useAction } from '../action';
import { Pager, pagedTable, usePages } from './Pager';
import { NoticeLine } from './NoticeLine';
import { invalidField, refusedField } from './FieldError';
import { ReplayCounts } from './ReplayCounts';
import { RunResultView } from './RunResult';
import { Link } from '../router';

type Kind = 'policy' | 'flow';

/** A share of runs as the form shows it, in percent: 0.25 is "25". */
function percentOf(rate: number): string {
  return String(Number((rate * 100).toPrecision(12)));
}

/** The form's text of the masked paths: one a line. */
function maskText(mask: string[]): string {
  return mask.join('\n');
}

/** The masked paths a form's text names: its lines, trimmed, without the empty ones. */
function maskOf(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/**
 * The share of runs a percent names, or a message saying why it names
 * none: the server takes shares greater than 0 and at most 1.
 */
function rateOf(percent: string): number | string {
  const n = Number(percent.trim());
  if (percent.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 100) {
    return 'The share of runs recorded must be a number greater than 0 and at most 100.';
  }
  return n / 100;
}

/**
 * The tab of the record a page shows: recording is set for its base by
 * those who may change the base, and Replay runs the record itself.
 */
export function DecisionsPanel({
  kind,
  record,
}: {
  kind: Kind;
  record: { id: string; baseId: string; status: string; version: number | null; owner: { kind: string; id: string } };
}) {
  const session = useSession();
  const { can } = session;
  const label = record.status === 'DRAFT' ? 'the draft' : recordLabel(record).toLowerCase();
  return (
    <>
      <RecordingSettings kind={kind} recordId={record.id} mayEdit={can.edit && mayChange(session, record.owner)} />
      {can.run && can.readAudit && <Replay kind={kind} recordId={record.id} recordLabel={label} />}
      {can.readAudit ? (
        <RecordedDecisions kind={kind} baseId={record.baseId} />
      ) : (
        <section className="panel" aria-labelledby="decisions-heading">
          <h2 id="decisions-heading">Recorded decisions</h2>
          <p className="muted">Only admins and auditors read recorded decisions.</p>
        </section>
      )}
    </>
  );
}

function RecordingSettings({ kind, recordId, mayEdit }: { kind: Kind; recordId: string; mayEdit: boolean }) {
  const { api } = useSession();
  const [saved, setSaved] = useState<DecisionRecordSettingsFieldsFragment | null>(null);
  const [loadError, setLoadError] = useState('');
  const [enabled, setEnabled] = useState(false);
  const [percent, setPercent] = useState('100');
  const [mask, setMask] = useState('');
  const { busy, notice, setNotice, act } = useAction();
  const { attempt, trying } = useTries(saysUnreachable(loadError));

  const show = (s: DecisionRecordSettingsFieldsFragment) => {
    setSaved(s);
    setEnabled(s.enabled);
    setPercent(percentOf(s.sampleRate));
    setMask(maskText(s.mask));
  };

  useEffect(() => {
    let live = true;
    if (!trying()) setLoadError('');
    // A lookup that fails is null with an error, which request throws.
    const load =
      kind === 'policy'
        ? api.request(PolicyDecisionRecordsDocument, { id: recordId }).then((r) => r.policyDecisionRecords!)
        : api.request(FlowDecisionRecordsDocument, { id: recordId }).then((r) => r.flowDecisionRecords!);
    load.then(
      (s) => {
        if (!live) return;
        setLoadError('');
        show(s);
      },
      (err) => live && setLoadError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [api, kind, recordId, attempt]);

  // The field a refusal is about, the form's own or the server's, which names it.
  const refused = refusedField(notice, { 'records-rate': /^The share of runs|^sampleRate\b/, 'records-mask': /^mask\b/ });
  const invalid = (field: string) => invalidField(refused === field && 'recording-notice');

  const changed =
    !!saved && (enabled !== saved.enabled || percent !== percentOf(saved.sampleRate) || maskText(maskOf(mask)) !== maskText(saved.mask));

  const onSave = () => {
    const rate = rateOf(percent);
    if (typeof rate === 'string') {
      setNotice({ kind: 'error', text: rate });
      return;
    }
    void act(async () => {
      const input = { enabled, sampleRate: rate, mask: maskOf(mask), ...(kind === 'policy' ? { policyId: recordId } : { flowId: recordId }) };
      const s = (await api.request(SetDecisionRecordsDocument, { input })).setDecisionRecords!;
      show(s);
      setNotice({ kind: 'ok', text: s.enabled ? 'Saved: stored runs are recorded.' : 'Saved: stored runs are not recorded.' });
    });
  };

  return (
    <section className="panel" aria-labelledby="recording-heading">
      <div className="panel-head">
        <h2 id="recording-heading">Recording</h2>
        {!mayEdit && <span className="muted small">Read only for your role</span>}
      </div>
      <p className="muted small">
        Recorded decisions keep the input, the version that ran and its result, for the audit and for replaying a draft on real inputs
        before it is published. Values at the masked paths are replaced by <code>"[masked]"</code> before anything is stored.
      </p>
      {loadError && (
        <p className="alert alert-error" role="alert">
          {loadError}
        </p>
      )}
      {saved && (
        <form
          className="recording"
          onSubmit={(e) => {
            e.preventDefault();
            onSave();
          }}
        >
          <div className="field field-check">
            <input id="records-enabled" type="checkbox" checked={enabled} disabled={!mayEdit} onChange={(e) => setEnabled(e.target.checked)} />
            <label htmlFor="records-enabled">Record the stored runs of this {kind}</label>
          </div>
          <div className="field">
            <label htmlFor="records-rate">Share of runs recorded (%)</label>
            <input
              id="records-rate"
              inputMode="decimal"
              value={percent}
              readOnly={!mayEdit}
              onChange={(e) => setPercent(e.target.value)}
              spellCheck={false}
              {...invalid('records-rate')}
            />
          </div>
          <div className="field">
            <label htmlFor="records-mask">Masked paths, one a line</label>
            <textarea
              id="records-mask"
              className="json-input"
              rows={3}
              value={mask}
              readOnly={!mayEdit}
              placeholder="$.Person.ssn"
              onChange={(e) => setMask(e.target.value)}
              spellCheck={false}
              {...invalid('records-mask')}
            />
          </div>
          {mayEdit && (
            <div className="actions">
              <button type="submit" className="btn btn-primary" disabled={busy || !changed}>
                Save recording
              </button>
            </div>
          )}
        </form>
      )}
      <NoticeLine notice={notice} id="recording-notice" />
    </section>
  );
}

/**
 * Runs the record on the recorded inputs of its base and compares, as
 * Publish does first, at any time: to see what a draft would change while
 * it is written. Replaying needs the rights to run and to read decisions.
 */
function Replay({ kind, recordId, recordLabel }: { kind: Kind; recordId: string; recordLabel: string }) {
  const { api } = useSession();
  const [report, setReport] = useState<ReplayFieldsFragment | null>(null);
  const { busy, notice, act } = useAction();
  const onReplay = () =>
    void act(async () => {
      setReport(null);
      setReport(
        kind === 'policy'
          ? (await api.request(ReplayPolicyDocument, { input: { policyId: recordId } })).replayPolicy!
          : (await api.request(ReplayFlowDocument, { input: { flowId: recordId } })).replayFlow!,
      );
    });
  return (
    <section className="panel" aria-labelledby="replay-heading" aria-busy={busy}>
      <div className="panel-head">
        <h2 id="replay-heading">Replay</h2>
        <button type="button" className="btn" onClick={onReplay} disabled={busy}>
          Replay {recordLabel} on the recorded decisions
        </button>
      </div>
      <p className="muted small">
        Runs {recordLabel}, as saved, on the inputs of the newest 1,000 recorded decisions and compares each result with the recorded
        one. Nothing is stored.
      </p>
      <NoticeLine notice={notice} />
      {busy && <p role="status">Replaying the recorded decisions…</p>}
      {report && report.compared === 0 && <p role="status">No recorded decisions to compare: this {kind} records none yet.</p>}
      {report && report.compared > 0 && <ReplayCounts report={report} linkDecisions />}
    </section>
  );
}

const resultFilters = { any: null, true: true, false: false } as const;
type ResultFilter = keyof typeof resultFilters;

function RecordedDecisions({ kind, baseId }: { kind: Kind; baseId: string }) {
  const session = useSession();
  const { api } = session;
  const [result, setResult] = useState<ResultFilter>('any');
  // The time range as the form holds it: local times, '' for open.
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  // Read again on Refresh: runs go on while the tab is open.
  const [refreshed, setRefreshed] = useState(0);
  const [open, setOpen] = useState<string | null>(null);

  const load = useCallback(
    async (after: string | null) => {
      const range = { since: instant(since), until: instant(until) };
      const problem = rangeProblem(range.since, range.until);
      if (problem) throw new Error(problem);
      return (
        await api.request(DecisionsDocument, {
          first: 20,
          after,
          filter: { baseId, result: resultFilters[result], since: range.since || null, until: range.until || null },
        })
      ).decisions;
    },
    [api, baseId, result, since, until],
  );
  const pages = usePages(load, refreshed);
  const rangeRefused = refusedField(pages.error, { 'decisions-until': /^Until must be later than From/ });

  return (
    <section className="panel" aria-labelledby="decisions-heading">
      <div className="panel-head">
        <h2 id="decisions-heading">Recorded decisions</h2>
        <div className="actions">
          <label htmlFor="decisions-result" className="sr-only">
            Result
          </label>
          <select id="decisions-result" value={result} onChange={(e) => setResult(e.target.value as ResultFilter)}>
            <option value="any">Any result</option>
            <option value="true">True</option>
            <option value="false">False</option>
          </select>
          <label htmlFor="decisions-since">From</label>
          <input id="decisions-since" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} />
          <label htmlFor="decisions-until">Until</label>
          <input
            id="decisions-until"
            type="datetime-local"
            value={until}
            onChange={(e) => setUntil(e.target.value)}
            {...invalidField(rangeRefused && 'decisions-error')}
          />
          <button type="button" className="btn" onClick={() => setRefreshed((n) => n + 1)} disabled={pages.loading}>
            Refresh
          </button>
        </div>
      </div>
      {pages.error && (
        <p className="alert alert-error" id="decisions-error" role="alert">
          {pages.error}
        </p>
      )}
      <table {...pagedTable(pages)} aria-label="Recorded decisions">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Result</th>
            <th scope="col">Ran</th>
            <th scope="col">By</th>
            <th scope="col">Took</th>
            <th scope="col">
              <span className="sr-only">Open</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {pages.items?.map((d) => (
            <tr key={d.id} aria-selected={open === d.id}>
              <td>{formatTime(d.at, true)}</td>
              <td>
                <code>{String(d.result)}</code>
              </td>
              <td>{d.version === null || d.version === undefined ? 'Draft' : `Version ${d.version}`}</td>
              <td>{actorLabel(session, d.actor)}</td>
              <td>{duration(d.durationNs)}</td>
              <td>
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  aria-expanded={open === d.id}
                  aria-controls="decision-details"
                  onClick={() => setOpen(open === d.id ? null : d.id)}
                >
                  {open === d.id ? 'Close' : 'Open'}
                  <span className="sr-only">
                    {' '}
                    the decision of {formatTime(d.at, true)}, {String(d.result)}
                  </span>
                </button>
              </td>
            </tr>
          ))}
          {pages.items?.length === 0 && (
            <tr>
              <td colSpan={6} className="muted empty">
                {result === 'any' && !since && !until
                  ? `No recorded decision. Turn recording on above, and run the ${kind} by its id.`
                  : pages.hasNext
                    ? 'No recorded decision matches among those this page read; the next page reads further back.'
                    : 'No recorded decision matches.'}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <Pager pages={pages} />
      {open && <DecisionDetails id={open} />}
    </section>
  );
}

/** Who ran a decision, in the words of the audit log. */
function actorLabel(s: Session, actor: DecisionFieldsFragment['actor']): string {
  if (actor.kind === 'KEY') return `Key …${actor.id.slice(-6)}`;
  return authorLabel(s, actor.id);
}

/** A run's duration, given in nanoseconds as digits, in the unit that reads best. */
function duration(ns: string): string {
  const n = Number(ns);
  if (n < 1e3) return `${n} ns`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} µs`;
  if (n < 1e9) return `${(n / 1e6).toFixed(1)} ms`;
  return `${(n / 1e9).toFixed(2)} s`;
}

type Decision = NonNullable<DecisionQuery['decision']>;

/**
 * One recorded decision: as recorded, then run again on its stored input
 * with its trace. Its own page links it to the policy or flow that made it.
 */
export function DecisionDetails({ id, page = false }: { id: string; page?: boolean }) {
  const { api } = useSession();
  const [decision, setDecision] = useState<Decision | null>(null);
  const [error, setError] = useState('');
  const { attempt, trying } = useTries(saysUnreachable(error));

  useEffect(() => {
    let live = true;
    if (!trying()) {
      setDecision(null);
      setError('');
    }
    const missing = 'There is no such decision record: it expired, or the id is wrong.';
    api.request(DecisionDocument, { id }).then(
      (r) => {
        if (!live) return;
        setError(r.decision ? '' : missing);
        if (r.decision) setDecision(r.decision);
      },
      (err) => live && setError((err instanceof VerdictError && err.code === 'not_found') || refusedId(err) ? missing : errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [api, id, attempt]);

  const isFlow = decision?.kind === 'FLOW';
  const ran = decision && (decision.version === null || decision.version === undefined ? 'the draft' : `version ${decision.version}`);
  // Its own page heads it with the page's h1; the Decisions tab, with an h3 under its list's h2.
  const Subheading = page ? 'h2' : 'h4';
  return (
    <div id="decision-details" role="region" aria-label={`Decision ${id}`} aria-busy={!decision && !error} className={page ? '' : 'decision-details'}>
      {!page && (
        <h3 className="small-heading">
          Decision <Link to={`decisions/${id}`}>{id}</Link>
        </h3>
      )}
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      {!decision && !error && <p className="muted">Loading…</p>}
      {decision && (
        <>
          <dl className="details">
            {page && (
              <>
                <dt>Made by</dt>
                <dd>
                  <Link to={`${isFlow ? 'flows' : 'policies'}/${decision.baseId}?record=${decision.recordId}`}>
                    {isFlow ? 'the flow' : 'the policy'}, {ran}
                  </Link>
                  , {formatTime(decision.at, true)}
                </dd>
              </>
            )}
            <dt>Recorded result</dt>
            <dd>
              <code>{String(decision.result)}</code>
            </dd>
            <dt>Recorded explanation</dt>
            <dd>{decision.explanation}</dd>
            <dt>Record that ran</dt>
            <dd>
              <Link to={`${isFlow ? 'flows' : 'policies'}/${decision.baseId}?record=${decision.recordId}`} title={`Record ${decision.recordId}`}>
                {decision.version === null || decision.version === undefined ? `the draft (revision ${decision.revision})` : `Version ${decision.version}`}
              </Link>
            </dd>
            <dt>Input</dt>
            <dd>
              <pre className="json">{formatJSON(decision.data)}</pre>
            </dd>
          </dl>
          <Subheading className="small-heading">Run again on the stored input</Subheading>
          {decision.recomputed ? (
            <>
              {isFlow && decision.recomputed.flow && (
                <p className="small" data-testid="decision-path">
                  Path: {[decision.recomputed.flow.nodeId, ...decision.recomputed.flow.executionPath].join(' → ')}
                </p>
              )}
              <RunResultView
                result={{
                  result: decision.recomputed.result,
                  explanation: decision.recomputed.explanation,
                  error: decision.recomputed.error ?? null,
                  trace: decision.recomputed.trace,
                  warnings: [],
                  labels: [],
                }}
              />
            </>
          ) : (
            <p className="muted">{decision.note}</p>
          )}
        </>
      )}
    </div>
  );
}
