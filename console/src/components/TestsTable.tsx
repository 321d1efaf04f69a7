import { useRef, useState } from 'react';
import { answerWords } from '../flows/answer';
import { returnFocus } from '../focus';
import { TestEditRow } from './TestEditRow';
import type { EditableTest } from './TestEditRow';

/** What the last run of the tests said of one of them. */
interface TestResult {
  name: string;
  passed: boolean;
  actual: unknown;
  error?: string | null;
  explanation: string;
}

/**
 * A result as the rest of the console shows it: an outcome as its text in
 * curly quotes, true or false as a word (answerWords), anything else as JSON.
 */
function resultWords(v: unknown): string {
  return typeof v === 'string' || typeof v === 'boolean' ? answerWords(v) : JSON.stringify(v);
}

/**
 * A record's tests with the results of their last run: each one's data
 * (a flow's input) can be taken to the page's run (onUse); on a draft
 * (editable) each opens in its row for editing, or is removed, and onChange
 * has the new list, saved with the draft. A policy's tests expect true or
 * false; a flow's (outcomes) may expect an outcome.
 */
export function TestsTable<T extends EditableTest>({
  tests,
  results,
  editable,
  outcomes,
  input,
  empty,
  onUse,
  onChange,
}: {
  tests: T[];
  results: TestResult[] | undefined;
  editable: boolean;
  outcomes: boolean;
  /** What the tests' data is called on the page: "data" or "input". */
  input: 'data' | 'input';
  /** What the table says while there are no tests. */
  empty: string;
  onUse: (t: T) => void;
  onChange: (tests: T[]) => void;
}) {
  const byName = new Map(results?.map((r) => [r.name, r]));
  // The test open for editing, by its place in the list.
  const [editing, setEditing] = useState<number | null>(null);
  // A closed edit row gives focus back to its test's Edit button; a removed
  // test, to the Remove button of the test that takes its place, or of the
  // one before.
  const table = useRef<HTMLTableElement>(null);
  const button = (i: number, action: 'Edit' | 'Remove') =>
    table.current?.querySelectorAll<HTMLButtonElement>(`tbody button[data-action="${action}"]`)[i];
  const closeEditing = (i: number) => {
    setEditing(null);
    returnFocus(() => button(i, 'Edit'));
  };
  return (
    <table className="table" aria-label="Tests" ref={table}>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">{input === 'data' ? 'Data' : 'Input'}</th>
          <th scope="col">Expected</th>
          <th scope="col">Actual</th>
          <th scope="col">Explanation</th>
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {tests.map((t, i) => {
          if (editing === i) {
            return (
              <TestEditRow
                key={t.name}
                test={t}
                taken={tests.filter((_, j) => j !== i).map((o) => o.name)}
                outcomes={outcomes}
                colSpan={6}
                onApply={(edited) => {
                  // The row offers only the expectations a test of this kind takes.
                  onChange(tests.map((old, j) => (j === i ? (edited as T) : old)));
                  closeEditing(i);
                }}
                onCancel={() => closeEditing(i)}
              />
            );
          }
          const r = byName.get(t.name);
          return (
            <tr key={t.name} className={r ? (r.passed ? 'row-pass' : 'row-fail') : undefined}>
              <td>{t.name}</td>
              <td>
                <code className="clip">{JSON.stringify(t.data)}</code>
              </td>
              <td>
                <code>{resultWords(t.expect)}</code>
              </td>
              <td>
                {r && (
                  <>
                    <code>{r.error ? 'error' : resultWords(r.actual)}</code>{' '}
                    <span className={r.passed ? 'mark mark-pass' : 'mark mark-fail'}>{r.passed ? '✓ pass' : '✗ fail'}</span>
                  </>
                )}
              </td>
              <td className="small">{r ? r.explanation || r.error : ''}</td>
              <td className="actions">
                <button type="button" className="btn btn-ghost btn-small" onClick={() => onUse(t)} aria-label={`Use ${input} of ${t.name}`}>
                  Use {input}
                </button>
                {editable && (
                  <>
                    <button type="button" className="btn btn-ghost btn-small" data-action="Edit" onClick={() => setEditing(i)} aria-label={`Edit test ${t.name}`}>
                      Edit
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost btn-small"
                      data-action="Remove"
                      onClick={() => {
                        setEditing(null);
                        onChange(tests.filter((_, j) => j !== i));
                        returnFocus(() => button(i, 'Remove') ?? button(i - 1, 'Remove'));
                      }}
                      aria-label={`Remove test ${t.name}`}
                    >
                      Remove
                    </button>
                  </>
                )}
              </td>
            </tr>
          );
        })}
        {tests.length === 0 && (
          <tr>
            <td colSpan={6} className="muted empty">
              {empty}
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
