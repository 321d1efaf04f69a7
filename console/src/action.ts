import { useEffect, useState } from 'react';
import { errorMessage, publishedRecord, staleRecord } from './api';
import { focusedControl, returnFocus } from './focus';

/** What the last action on a page said: a success, or a refusal with the problems it lists. */
export interface Notice {
  kind: 'ok' | 'error';
  text: string;
  details?: string[];
  /**
   * A refusal because the record changed since the page read it: the draft
   * was saved again (see staleRecord), or published (see publishedRecord).
   */
  stale?: 'saved' | 'published';
}

/** Asks the server which version a record is now; undefined or null when it cannot tell. */
export type VersionNow = () => Promise<number | null | undefined>;

/**
 * The notice of a refused action on the record `recordId`; `refused` ("Not
 * published") heads the server's message for an action that says what it
 * did not do. A draft published meanwhile is said in plain words, with the
 * version it became when versionNow tells, rather than in the server's,
 * which name the record by its id and speak of its API.
 */
export async function refusalNotice(
  err: unknown,
  { recordId, versionNow, refused }: { recordId?: string; versionNow?: VersionNow; refused?: string } = {},
): Promise<Notice> {
  if (publishedRecord(err, recordId)) {
    const version = await versionNow?.().catch(() => null);
    const as = version ? `, as version ${version}` : '';
    return {
      kind: 'error',
      text: refused ? `${refused}: this draft was published meanwhile${as}.` : `This draft was published meanwhile${as}: your changes are not saved.`,
      stale: 'published',
    };
  }
  return { kind: 'error', text: refused ? `${refused}: ${errorMessage(err)}` : errorMessage(err), stale: staleRecord(err) ? 'saved' : undefined };
}

// Notices left for the page an action moves to, by the record it shows:
// a publish moves to the new version, whose page is made anew.
const carried = new Map<string, Notice>();

/** Leaves a notice for the page of the record `to`, which shows it first (see useAction). */
export function carryNotice(to: string, notice: Notice): void {
  carried.set(to, notice);
}

/**
 * The actions of a page that takes one at a time: `act` marks the page busy
 * while one runs and clears the last notice; a failure becomes an error
 * notice (see refusalNotice), once `onError` has seen it. The control that
 * started the action, disabled while it runs, has focus again once it is
 * done (see returnFocus). A page of a record (`recordId`) starts with the
 * notice carried to it; `versionNow` says which version the record is, for
 * a draft published meanwhile.
 */
export function useAction(onError?: (err: unknown) => void, recordId?: string, versionNow?: VersionNow) {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(() => (recordId && carried.get(recordId)) || null);
  useEffect(() => {
    if (recordId) carried.delete(recordId);
  }, [recordId]);
  const act = async (what: () => Promise<void>) => {
    const from = focusedControl();
    setBusy(true);
    setNotice(null);
    try {
      await what();
    } catch (err) {
      onError?.(err);
      setNotice(await refusalNotice(err, { recordId, versionNow }));
    } finally {
      setBusy(false);
      returnFocus(from);
    }
  };
  return { busy, notice, setNotice, act };
}
