/** A record as the console names it: "Draft", or "Version 3". */
export function recordLabel(r: { status: string; version: number | null }): string {
  return r.status === 'DRAFT' ? 'Draft' : `Version ${r.version}`;
}

/** How many versions the console asks for in each page of a history: the most the server gives at once. */
const historyPageSize = 200;

/** A base's history as far as it is loaded: `nextCursor` asks for the versions older than these (none when empty). */
export interface History<R extends { id: string } = { id: string }> {
  draft?: R | null;
  versions: R[];
  nextCursor: string;
}

/**
 * A page of a base's history, newest first: the first when `after` is
 * absent, else the one after that cursor; null for a base that is deleted
 * or not visible.
 */
export type HistoryPage<H> = (first: number, after?: string) => Promise<H | null | undefined>;

/**
 * A base's history from its newest version back to every record `wanted`
 * names, and one version beyond it, so that the record a version is
 * compared with by default is there too: the first page for most, more
 * for a link to an old version. A history of thousands of versions is
 * then never loaded whole; `history`, when given, is continued instead of
 * loaded anew.
 */
export async function historyReaching<H extends History>(
  page: HistoryPage<H>,
  wanted: readonly string[],
  history?: H,
): Promise<H | null | undefined> {
  let h = history ?? (await page(historyPageSize));
  while (h && !historyReaches(h, wanted)) {
    h = await olderHistory(page, h);
  }
  return h;
}

/**
 * Whether h holds every record wanted names and, for a version, the one
 * before it; or holds all there is, where a record not found is not to be.
 */
export function historyReaches(h: History, wanted: readonly string[]): boolean {
  return !h.nextCursor || wanted.every((id) => reaches(h, id));
}

/** Whether h holds the record id (none when empty) and, for a version, the one before it. */
function reaches(h: History, id: string): boolean {
  if (!id || h.draft?.id === id) return true;
  const at = h.versions.findIndex((v) => v.id === id);
  return at >= 0 && (at < h.versions.length - 1 || !h.nextCursor);
}

/** h with the next page of older versions after its own. */
export async function olderHistory<H extends History>(page: HistoryPage<H>, h: H): Promise<H | null | undefined> {
  const next = await page(historyPageSize, h.nextCursor);
  return next && { ...h, versions: [...h.versions, ...next.versions], nextCursor: next.nextCursor };
}

/** How many versions a base has: its latest one's number, whether or not every version is loaded. */
export function versionCount(records: { status: string; version: number | null }[]): number {
  return records.find((r) => r.status === 'PUBLISHED')?.version ?? 0;
}

/** A base's records as the server lists them: the draft first, then the versions, newest first. */
export function recordsOf<R>(history: { draft?: R | null; versions: R[] }): R[] {
  return [...(history.draft ? [history.draft] : []), ...history.versions];
}

/**
 * Where a record stands among its base's records (the draft first, then the
 * versions, newest first): the latest version; the record it is compared
 * with by default (a draft with the latest version, a version with the one
 * before it); and whether it is a version other than the latest, which a
 * rollback can publish again.
 */
export function standing<R extends { id: string; status: string }>(records: R[], record: R | null | undefined) {
  const latest = records.find((r) => r.status === 'PUBLISHED');
  const compareWith = !record ? undefined : record.status === 'DRAFT' ? latest : records[records.indexOf(record) + 1];
  const earlierVersion = !!record && record.status === 'PUBLISHED' && record.id !== latest?.id;
  return { compareWith, earlierVersion };
}

/**
 * The two records a comparison shows: those its link names, or, for a side
 * it names none, the second record listed on the left and the first on the
 * right. A side whose id is none of the records is undefined: another
 * record in its place would be compared without the reader knowing.
 */
export function comparedPair<R extends { id: string }>(records: R[], left: string, right: string): [R | undefined, R | undefined] {
  const named = (id: string, otherwise: R | undefined) => (id ? records.find((r) => r.id === id) : otherwise);
  return [named(left, records[1] ?? records[0]), named(right, records[0])];
}

/** The ids a comparison's link names that are none of the base's records. */
export function unknownRecords(records: { id: string }[], ids: string[]): string[] {
  return ids.filter((id) => id && !records.some((r) => r.id === id));
}
