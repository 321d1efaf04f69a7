import { useState } from 'react';
import { formatJSON } from '../format';
import { jsonProblem } from '../editor/jsonEditor';
import { isJSONObject } from '../runData';
import { FieldError, invalidField } from './FieldError';

/** A stored test as a page edits it. */
export interface EditableTest {
  name: string;
  data: unknown;
  expect: unknown;
}

type ExpectKind = 'true' | 'false' | 'outcome';

/**
 * A test of the table opened for editing: its name, what it expects and its
 * data. A policy's test expects true or false; a flow's (outcomes) may also
 * expect the outcome of the custom node its run ends on. Apply hands the
 * edited test back once it is one the server takes: a name no other test
 * has, and data that is a JSON object. Escape cancels, as Cancel does.
 */
export function TestEditRow({
  test,
  taken,
  outcomes,
  colSpan,
  onApply,
  onCancel,
}: {
  test: EditableTest;
  /** The names of the other tests. */
  taken: string[];
  outcomes: boolean;
  colSpan: number;
  onApply: (t: EditableTest) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(test.name);
  const [kind, setKind] = useState<ExpectKind>(typeof test.expect === 'string' ? 'outcome' : test.expect ? 'true' : 'false');
  const [outcome, setOutcome] = useState(typeof test.expect === 'string' ? test.expect : '');
  const [data, setData] = useState(formatJSON(test.data));
  // Why the test cannot be applied, and the field that says it.
  const [problem, setProblem] = useState<{ field: 'name' | 'data'; text: string } | null>(null);

  const apply = () => {
    const trimmed = name.trim();
    const dataProblem = jsonProblem(data);
    const parsed: unknown = dataProblem ? null : JSON.parse(data);
    if (!trimmed) return setProblem({ field: 'name', text: 'A test needs a name.' });
    if (taken.includes(trimmed)) return setProblem({ field: 'name', text: `Another test is named “${trimmed}”: test names are unique.` });
    if (dataProblem) return setProblem({ field: 'data', text: `The data is not valid JSON: ${dataProblem}` });
    if (!isJSONObject(parsed)) return setProblem({ field: 'data', text: 'The data must be a JSON object.' });
    onApply({ name: trimmed, data: parsed, expect: kind === 'outcome' ? outcome : kind === 'true' });
  };

  const id = (field: string) => `test-edit-${field}`;
  const invalid = (field: 'name' | 'data') => invalidField(problem?.field === field && id('problem'));
  return (
    <tr className="test-edit">
      <td colSpan={colSpan}>
        <form
          aria-label={`Edit test ${test.name}`}
          onSubmit={(e) => {
            e.preventDefault();
            apply();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              onCancel();
            }
          }}
        >
          <div className="test-edit-fields">
            <div className="field">
              <label htmlFor={id('name')}>Name</label>
              <input id={id('name')} value={name} onChange={(e) => setName(e.target.value)} autoFocus {...invalid('name')} />
            </div>
            <div className="field">
              <label htmlFor={id('expect')}>Expects</label>
              <select id={id('expect')} value={kind} onChange={(e) => setKind(e.target.value as ExpectKind)}>
                <option value="true">true</option>
                <option value="false">false</option>
                {outcomes && <option value="outcome">an outcome</option>}
              </select>
            </div>
            {kind === 'outcome' && (
              <div className="field">
                <label htmlFor={id('outcome')}>Outcome</label>
                <input id={id('outcome')} value={outcome} onChange={(e) => setOutcome(e.target.value)} />
              </div>
            )}
          </div>
          <div className="field">
            <label htmlFor={id('data')}>Data (JSON)</label>
            <textarea
              id={id('data')}
              className="json-input"
              rows={5}
              value={data}
              onChange={(e) => setData(e.target.value)}
              spellCheck={false}
              {...invalid('data')}
            />
          </div>
          {problem && <FieldError id={id('problem')}>{problem.text}</FieldError>}
          <div className="actions">
            <button type="submit" className="btn btn-primary btn-small">
              Apply
            </button>
            <button type="button" className="btn btn-small" onClick={onCancel}>
              Cancel
            </button>
          </div>
        </form>
      </td>
    </tr>
  );
}
