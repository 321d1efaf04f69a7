import { Fragment, useState } from 'react';
import type { RunResultFieldsFragment } from '@verdict/client';
import { RunResultView, failure } from './RunResult';

/**
 * The runs of a list of samples, one row each in the list's order: its
 * result and explanation, and its whole result on demand. A reference in
 * a trace calls onReference, as in a single run's.
 */
export function BatchResultView({ results, onReference }: { results: RunResultFieldsFragment[]; onReference?: (name: string) => void }) {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <div className="run-result" data-testid="batch-result">
      <BatchCounts results={results.map((r) => ({ result: r.result, failed: !!r.error }))} failedWords="could not run" />
      <table className="table table-compact" aria-label="Runs of the samples">
        <thead>
          <tr>
            <th scope="col">Sample</th>
            <th scope="col">Result</th>
            <th scope="col">Explanation</th>
            <th scope="col">
              <span className="sr-only">Trace</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {results.map((r, i) => (
            <Fragment key={i}>
              <tr>
                <td>{i + 1}</td>
                <td>
                  <code>{r.error ? 'error' : String(r.result)}</code>
                </td>
                <td>{r.error ? failure(r) : r.explanation}</td>
                <td>
                  {!r.error && (
                    <button
                      type="button"
                      className="btn btn-ghost btn-small"
                      aria-expanded={open === i}
                      aria-controls={`batch-run-${i}`}
                      aria-label={`${open === i ? 'Hide the trace' : 'Trace'} of sample ${i + 1}`}
                      onClick={() => setOpen(open === i ? null : i)}
                    >
                      {open === i ? 'Hide trace' : 'Trace'}
                    </button>
                  )}
                </td>
              </tr>
              {open === i && (
                <tr id={`batch-run-${i}`}>
                  <td colSpan={4}>
                    <RunResultView result={r} onReference={onReference} />
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** How a batch's runs came out: true, false, and failed, said in failedWords. */
export function BatchCounts({ results, failedWords }: { results: { result: boolean; failed: boolean }[]; failedWords: string }) {
  const failed = results.filter((r) => r.failed).length;
  const passed = results.filter((r) => !r.failed && r.result).length;
  return (
    <p className="verdict verdict-batch" role="status">
      {results.length === 1 ? '1 run' : `${results.length} runs`}: {passed} true, {results.length - passed - failed} false
      {failed > 0 && `, ${failed} ${failedWords}`}
    </p>
  );
}
