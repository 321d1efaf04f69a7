import { useState } from 'react';
import { errorMessage } from './api';
import { focusedControl, returnFocus } from './focus';

/** What the last action on a page said: a success, or a refusal with the problems it lists. */
export interface Notice {
  kind: 'ok' | 'error';
  text: string;
  details?: string[];
}

/**
 * The actions of a page that takes one at a time: `act` marks the page busy
 * while one runs and clears the last notice; a failure becomes an error
 * notice, once `onError` has seen it. The control that started the action,
 * disabled while it runs, has focus again once it is done (see returnFocus).
 */
export function useAction(onError?: (err: unknown) => void) {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const act = async (what: () => Promise<void>) => {
    const from = focusedControl();
    setBusy(true);
    setNotice(null);
    try {
      await what();
    } catch (err) {
      onError?.(err);
      setNotice({ kind: 'error', text: errorMessage(err) });
    } finally {
      setBusy(false);
      returnFocus(from);
    }
  };
  return { busy, notice, setNotice, act };
}
