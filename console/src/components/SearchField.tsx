/** The search box of a list, bound to its useSearchParam. */
export function SearchField({
  search,
  id,
  label = 'Search by name',
  placeholder = 'Name contains…',
}: {
  search: { text: string; setText: (text: string) => void };
  id: string;
  label?: string;
  placeholder?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" value={search.text} onChange={(e) => search.setText(e.target.value)} placeholder={placeholder} />
    </div>
  );
}
