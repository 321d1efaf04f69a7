import type { ReplayFieldsFragment } from '@verdict/client';
import { formatTime } from '../format';
import { Link } from '../router';

function outcome(o: { result: boolean; explanation: string; error: string | null }): string {
  // An explanation says why a run failed in plain words; the error, in the engine's.
  return o.error ? `error: ${o.explanation || o.error}` : `${o.result ? 'true' : 'false'}: ${o.explanation}`;
}

/**
 * What a replay found: how many recorded decisions it compared, changed,
 * left unchanged and could not run, and each decision that changes (its
 * result, its outcome, or whether its run stops on an error), before and
 * after. linkDecisions makes each decision a link to its page, where
 * leaving the screen loses nothing.
 */
export function ReplayCounts({ report, linkDecisions = false }: { report: ReplayFieldsFragment; linkDecisions?: boolean }) {
  const changed = report.items.filter((i) => i.changed);
  return (
    <>
      {/* The live region wraps the list: a role on the dl itself would take its dt and dd out of a list. */}
      <div role="status">
        <dl className="replay-counts">
          <dt>Compared</dt>
          <dd data-testid="replay-compared">{report.compared}</dd>
          <dt>Changed</dt>
          <dd data-testid="replay-changed">{report.changed}</dd>
          <dt>Unchanged</dt>
          <dd data-testid="replay-unchanged">{report.unchanged}</dd>
          <dt>Errors</dt>
          <dd data-testid="replay-errors">{report.errors}</dd>
        </dl>
      </div>
      {/* On a phone each row's cells stand one under another (table-stack):
          the roles keep the table a table for assistive technologies. */}
      {changed.length > 0 && (
        <table className="table replay-changed table-stack" role="table">
          <caption>Decisions that change</caption>
          <thead>
            <tr role="row">
              <th scope="col" role="columnheader">
                Decision
              </th>
              <th scope="col" role="columnheader">
                Before
              </th>
              <th scope="col" role="columnheader">
                After
              </th>
            </tr>
          </thead>
          <tbody>
            {changed.map((i) => (
              <tr key={i.decisionId} role="row">
                <td role="cell" data-label="Decision">
                  {linkDecisions ? (
                    <Link to={`decisions/${i.decisionId}`}>
                      <code>{i.decisionId}</code>
                    </Link>
                  ) : (
                    <code>{i.decisionId}</code>
                  )}
                  <div className="muted small">{formatTime(i.at)}</div>
                </td>
                <td role="cell" data-label="Before">
                  {outcome(i.before)}
                </td>
                <td role="cell" data-label="After">
                  {outcome(i.after)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
