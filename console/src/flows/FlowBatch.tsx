import type { FlowRunResultFieldsFragment } from '@verdict/client';
import { BatchCounts } from '../components/BatchResult';
import { answerWords } from './answer';

/** What a flow run ended on, in a word: its outcome, else its result. */
function flowAnswer(r: FlowRunResultFieldsFragment): string {
  if (r.errors.length > 0) return 'error';
  return answerWords(r.outcome ?? r.result);
}

/**
 * The runs of a list of inputs, one row each in the list's order: what
 * each ended on, the path it took and why it stopped. One run at a time
 * shows on the graph; Show picks it.
 */
export function FlowBatchView({
  results,
  steps,
  shown,
  onShow,
}: {
  results: FlowRunResultFieldsFragment[];
  /** The nodes a run reached, in order (see runPath). */
  steps: (r: FlowRunResultFieldsFragment) => string[];
  shown: number | null;
  onShow: (i: number) => void;
}) {
  return (
    <div className="run-result" data-testid="flow-batch">
      <BatchCounts results={results.map((r) => ({ result: r.result, failed: r.errors.length > 0 }))} failedWords="stopped on an error" />
      <table className="table table-compact" aria-label="Runs of the inputs">
        <thead>
          <tr>
            <th scope="col">Input</th>
            <th scope="col">Result</th>
            <th scope="col">Path</th>
            <th scope="col">
              <span className="sr-only">On the graph</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {results.map((r, i) => (
            <tr key={i} aria-current={shown === i ? 'true' : undefined}>
              <td>{i + 1}</td>
              <td>
                <code>{flowAnswer(r)}</code>
              </td>
              <td>
                {steps(r).join(' → ')}
                {r.errors.length > 0 && <div className="small">{r.errors.join('; ')}</div>}
              </td>
              <td>
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  aria-pressed={shown === i}
                  aria-label={`Show input ${i + 1} on the graph`}
                  onClick={() => onShow(i)}
                >
                  Show
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
