import { Fragment } from 'react';
import type { RunResultFieldsFragment, TypedValueFieldsFragment } from '@verdict/client';
import { formatJSON } from '../format';

type Entry = RunResultFieldsFragment['trace']['execution'][number];

/** What the view shows of a run: a policy run's result, or a flow node's (whose trace may be missing). */
export type RunView = Pick<RunResultFieldsFragment, 'result' | 'explanation' | 'warnings' | 'error' | 'labels'> & {
  trace: RunResultFieldsFragment['trace'] | null;
};
type Condition = Entry['conditions'][number];

function typed(v: TypedValueFieldsFragment | null | undefined): string {
  if (!v) return '';
  return formatJSON(v.value);
}

// The trace names operators; people read the phrase the language writes.
const phrases: Record<string, string> = {
  greaterthanorequal: 'is greater than or equal to',
  lessthanorequal: 'is less than or equal to',
  exactlyequalto: 'is exactly equal to',
  equalto: 'is equal to',
  notequalto: 'is not equal to',
  laterthan: 'is later than',
  earlierthan: 'is earlier than',
  greaterthan: 'is greater than',
  lessthan: 'is less than',
  in: 'is in',
  notin: 'is not in',
  contains: 'contains',
  isempty: 'is empty',
  isnotempty: 'is not empty',
  within: 'is within',
  olderthan: 'is older than',
  youngerthan: 'is younger than',
};

export function operatorPhrase(op: string): string {
  return phrases[op.replace(/[^A-Za-z]/g, '').toLowerCase()] ?? op;
}

/**
 * A property's path, which a narrow column wraps after its dots and
 * underscores (Person. / monthly_ / income), never inside a name.
 */
function PropertyPath({ path }: { path: string }) {
  const parts = path.split(/(?<=[._])/);
  return (
    <code className="property-path">
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {p}
        </Fragment>
      ))}
    </code>
  );
}

function Mark({ ok }: { ok: boolean }) {
  return <span className={ok ? 'mark mark-pass' : 'mark mark-fail'}>{ok ? '✓ pass' : '✗ fail'}</span>;
}

function cardId(i: number) {
  return `trace-rule-${i + 1}`;
}

/** The card a reference names: by label, or by the outcome phrase its rule concludes. */
function referenced(entries: Entry[], name: string): number {
  const n = name.trim().toLowerCase().replace(/^§/, '');
  return entries.findIndex((e) => e.label?.toLowerCase() === n || e.outcome.toLowerCase() === n);
}

function ConditionRow({ c, entries, onReference }: { c: Condition; entries: Entry[]; onReference?: (name: string) => void }) {
  if (c.__typename === 'ComparisonCondition') {
    const found = c.evaluationDetails?.leftValue ? typed(c.evaluationDetails.leftValue) : formatJSON(c.property.value);
    const against = c.evaluationDetails?.rightValue ? typed(c.evaluationDetails.rightValue) : typed(c.value);
    return (
      <tr className={c.result ? 'row-pass' : 'row-fail'}>
        <td>
          <PropertyPath path={c.property.path.replace(/^\$\./, '')} />
        </td>
        <td>
          <code>{found}</code>
        </td>
        <td>{operatorPhrase(c.operator)}</td>
        <td>
          <code>{against}</code>
        </td>
        <td>
          <Mark ok={c.result} />
        </td>
      </tr>
    );
  }
  const target = referenced(entries, c.ruleName);
  return (
    <tr className={c.result ? 'row-pass' : 'row-fail'}>
      <td colSpan={3}>
        {c.selector ? `${c.selector} — rule ` : 'Rule '}
        {target >= 0 ? (
          <a href={`#${cardId(target)}`} onClick={(e) => {
            e.preventDefault();
            const el = document.getElementById(cardId(target));
            el?.scrollIntoView({ block: 'nearest' });
            el?.focus();
          }}>
            {c.ruleName}
          </a>
        ) : onReference ? (
          <button type="button" className="linklike" onClick={() => onReference(c.ruleName)} title="Show this rule in the editor">
            {c.ruleName}
          </button>
        ) : (
          c.ruleName
        )}
        {c.propertyCheck && (
          <span className="muted">
            {' '}
            (property {c.propertyCheck.propertyName} = <code>{formatJSON(c.propertyCheck.propertyValue)}</code>)
          </span>
        )}
      </td>
      <td>{c.referencedRuleOutcome ? <code>{c.referencedRuleOutcome}</code> : ''}</td>
      <td>
        <Mark ok={c.result} />
      </td>
    </tr>
  );
}

export function Trace({ entries, onReference }: { entries: Entry[]; onReference?: (name: string) => void }) {
  return (
    <div className="trace">
      {entries.map((e, i) => (
        <section key={i} id={cardId(i)} tabIndex={-1} className={`trace-card ${e.result ? 'card-pass' : 'card-fail'}`} aria-label={`Rule ${i + 1}: ${e.outcome}`}>
          <header>
            <span className="rule-no">Rule {i + 1}</span>
            {e.label && <span className="badge badge-label">§{e.label}</span>}
            <span className="rule-head">
              <strong>{e.selector}</strong> {e.outcome}
            </span>
            <Mark ok={e.result} />
          </header>
          {e.conditions.length > 0 && (
            <div className="trace-table">
              <table className="table table-compact">
                <thead>
                  <tr>
                    <th scope="col">Property</th>
                    <th scope="col">Value found</th>
                    <th scope="col">Operator</th>
                    <th scope="col">Compared with</th>
                    <th scope="col">Result</th>
                  </tr>
                </thead>
                <tbody>
                  {e.conditions.map((c, j) => (
                    <ConditionRow key={j} c={c} entries={entries} onReference={onReference} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      ))}
    </div>
  );
}

/**
 * Why a run failed, in the words of its explanation, which says it for
 * people (where the text does not parse, what it expected there); the
 * error alone is the engine's (`Parse error:  --> 1:1 ...`).
 */
export function failure(result: Pick<RunView, 'error' | 'explanation'>): string {
  return `Could not run. ${result.explanation || result.error}`;
}

/**
 * A run's result. A reference to a rule the trace has no card for (the
 * trace follows the golden rule) calls onReference with the rule's name.
 */
export function RunResultView({ result, onReference }: { result: RunView; onReference?: (name: string) => void }) {
  // A run that failed has no result to read: its false and its trace (of
  // the parser, say) are the engine's internals, so only why it failed shows.
  if (result.error) {
    return (
      <div className="run-result" data-testid="run-result">
        <p className="alert alert-error" role="alert">
          {failure(result)}
        </p>
      </div>
    );
  }
  const labels = result.labels && typeof result.labels === 'object' ? Object.entries(result.labels as Record<string, unknown>) : [];
  return (
    <div className="run-result" data-testid="run-result">
      <div className={`verdict ${result.result ? 'verdict-true' : 'verdict-false'}`} role="status">
        Result: <strong>{String(result.result)}</strong>
      </div>
      {result.explanation && (
        <p className="explanation" data-testid="explanation">
          {result.explanation}
        </p>
      )}
      {result.warnings.length > 0 && (
        <ul className="warnings" aria-label="Warnings">
          {result.warnings.map((w) => (
            <li key={`${w.code}:${w.message}`}>{w.message}</li>
          ))}
        </ul>
      )}
      {labels.length > 0 && (
        <div className="labels" role="group" aria-label="Labels">
          {labels.map(([k, v]) => (
            <span key={k} className={`badge ${v === true ? 'badge-pass' : 'badge-fail'}`}>
              §{k}: {String(v)}
            </span>
          ))}
        </div>
      )}
      {result.trace && <Trace entries={result.trace.execution} onReference={onReference} />}
    </div>
  );
}
