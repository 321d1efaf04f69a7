import { isJSONObject } from './runData';

const time = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeToSecond = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** An instant in the browser's time zone; with its seconds for what happens many times a minute, such as runs. */
export function formatTime(iso: string | null | undefined, seconds = false): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : (seconds ? timeToSecond : time).format(d);
}

/** A datetime-local value as an instant, in the browser's time zone; '' for none. */
export function instant(local: string): string {
  if (!local) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

/**
 * Why a time range of instants ('' for open) is not one, in the words of
 * the forms' From and Until: the server takes none that ends before it
 * starts. '' for a range it takes.
 */
export function rangeProblem(since: string, until: string): string {
  return since && until && Date.parse(until) <= Date.parse(since) ? 'Until must be later than From.' : '';
}

/** JSON as people read it: compact for scalars, indented for the rest. */
export function formatJSON(v: unknown): string {
  if (v === undefined) return '';
  return typeof v === 'object' && v !== null ? JSON.stringify(v, null, 2) : JSON.stringify(v);
}

/** A count with its noun: "1 error", "2 errors". */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A value of one of the API's enums as a word: PUBLISHER reads Publisher. */
export function enumWord(s: string): string {
  return s.charAt(0) + s.slice(1).toLowerCase();
}

/**
 * Whether two JSON values are the same, whatever the order of their objects'
 * members: the server stores what it is sent with the members sorted.
 */
export function sameJSON(a: unknown, b: unknown): boolean {
  return canonicalJSON(a) === canonicalJSON(b);
}

function canonicalJSON(v: unknown): string {
  return JSON.stringify(v, (_key, x: unknown) =>
    isJSONObject(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}
