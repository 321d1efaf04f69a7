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
