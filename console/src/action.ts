import { useEffect, useState } from 'react';
import { errorMessage, staleRecord } from './api';
import { focusedControl, returnFocus } from './focus';

/** What the last action on a page said: a success, or a refusal with the problems it lists. */
export interface Notice {
  kind: 'ok' | 'error';
  text: string;
  details?: string[];
  /** A refusal because the record changed since the page read it (see staleRecord). */
  stale?: boolean;
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
 * notice, once `onError` has seen it. The control that started the action,
 * disabled while it runs, has focus again once it is done (see returnFocus).
 * A page of a record (`recordId`) starts with the notice carried to it.
 */
export function useAction(onError?: (err: unknown) => void, recordId?: string) {
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
      setNotice({ kind: 'error', text: errorMessage(err), stale: staleRecord(err) });
    } finally {
      setBusy(false);
      returnFocus(from);
    }
  };
  return { busy, notice, setNotice, act };
}
