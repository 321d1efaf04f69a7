import { invalidField } from './FieldError';

/**
 * A record's name, which saving needs: an editable one that is empty says
 * so, since Save is then disabled without a word of its own. refusal is
 * the id of the notice of a save refused for the name, if one is shown.
 */
export function NameField({
  id,
  name,
  editable,
  refusal,
  onChange,
}: {
  id: string;
  name: string;
  editable: boolean;
  refusal?: string | false | null;
  onChange: (name: string) => void;
}) {
  const needed = editable && !name.trim();
  return (
    <div className="field">
      <label htmlFor={id}>Name</label>
      <input
        id={id}
        value={name}
        onChange={(e) => onChange(e.target.value)}
        readOnly={!editable}
        required={editable}
        {...invalidField(needed ? `${id}-needed` : refusal)}
      />
      {needed && (
        <p id={`${id}-needed`} className="muted small">
          A name is needed before the draft can be saved.
        </p>
      )}
    </div>
  );
}
