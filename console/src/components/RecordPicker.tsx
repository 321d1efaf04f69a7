import { recordLabel } from '../versions';

/** A field that picks one of a base's records by its label. */
export function RecordPicker<R extends { id: string; status: string; version: number | null }>({
  id,
  label,
  records,
  value,
  onPick,
}: {
  id: string;
  label: string;
  records: R[];
  value: string | undefined;
  onPick: (id: string) => void;
}) {
  return (
    <div className="field field-inline">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onPick(e.target.value)}>
        {records.map((r) => (
          <option key={r.id} value={r.id}>
            {recordLabel(r)}
          </option>
        ))}
      </select>
    </div>
  );
}
