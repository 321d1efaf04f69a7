const time = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : time.format(d);
}

/** JSON as people read it: compact for scalars, indented for the rest. */
export function formatJSON(v: unknown): string {
  if (v === undefined) return '';
  return typeof v === 'object' && v !== null ? JSON.stringify(v, null, 2) : JSON.stringify(v);
}

/** A value of one of the API's enums as a word: PUBLISHER reads Publisher. */
export function enumWord(s: string): string {
  return s.charAt(0) + s.slice(1).toLowerCase();
}
