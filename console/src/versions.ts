/** A record as the console names it: "Draft", or "Version 3". */
export function recordLabel(r: { status: string; version: number | null }): string {
  return r.status === 'DRAFT' ? 'Draft' : `Version ${r.version}`;
}

/** How many versions the console asks for in each page of a history: the most the server gives at once. */
const historyPageSize = 200;

/**
 * A base's whole history: its first page, with the versions of every page
 * after it, newest first. The server pages a history as it does any list;
 * `page` asks for the one after a cursor (the first when none), and answers
 * null for a base that is deleted or not visible.
 */
export async function wholeHistory<H extends { versions: unknown[]; nextCursor: string }>(
  page: (first: number, after?: string) => Promise<H | null | undefined>,
): Promise<H | null | undefined> {
  const head = await page(historyPageSize);
  if (!head) return head;
  let versions: H['versions'] = head.versions;
  for (let after = head.nextCursor; after; ) {
    const next = await page(historyPageSize, after);
    if (!next) return next;
    versions = [...versions, ...next.versions];
    after = next.nextCursor;
  }
  return { ...head, versions, nextCursor: '' };
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
 * The two records a comparison shows: those its link names, or else the
 * second record listed on the left and the first on the right.
 */
export function comparedPair<R extends { id: string }>(records: R[], left: string, right: string): [R | undefined, R | undefined] {
  return [records.find((r) => r.id === left) ?? records[1] ?? records[0], records.find((r) => r.id === right) ?? records[0]];
}
