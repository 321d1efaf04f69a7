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
 * Whether s is an instant as the server takes it: an RFC 3339 time, such as
 * 2027-01-31T09:30:00Z, of a day the month has, with an offset of at most
 * 24 hours and 60 minutes, as the server's reading of RFC 3339 allows. The browser's
 * own reading takes other forms, and moves 31 February on to March.
 */
export function isInstant(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,]\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/.exec(s);
  if (!m) return false;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0] = m
    .slice(1)
    .map((n) => Number(n ?? 0));
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  const inDay = hour < 24 && minute < 60 && second < 60;
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day && inDay && offsetHours <= 24 && offsetMinutes <= 60;
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
