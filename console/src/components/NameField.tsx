/**
 * A record's name, which saving needs: an editable one that is empty says
 * so, since Save is then disabled without a word of its own.
 */
export function NameField({ id, name, editable, onChange }: { id: string; name: string; editable: boolean; onChange: (name: string) => void }) {
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
        aria-describedby={needed ? `${id}-needed` : undefined}
      />
      {needed && (
        <p id={`${id}-needed`} className="muted small">
          A name is needed before the draft can be saved.
        </p>
      )}
    </div>
  );
}
