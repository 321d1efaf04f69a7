import { useState } from 'react';
import { errorMessage } from './api';

/** What the last action on a page said: a success, or a refusal with the problems it lists. */
export interface Notice {
  kind: 'ok' | 'error';
  text: string;
  details?: string[];
}

/**
 * The actions of a page that takes one at a time: `act` marks the page busy
 * while one runs and clears the last notice; a failure becomes an error
 * notice, once `onError` has seen it.
 */
export function useAction(onError?: (err: unknown) => void) {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const act = async (what: () => Promise<void>) => {
    setBusy(true);
    setNotice(null);
    try {
      await what();
    } catch (err) {
      onError?.(err);
      setNotice({ kind: 'error', text: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  return { busy, notice, setNotice, act };
}
