import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from './api';
import { recordsOf } from './versions';

interface History<R> {
  draft?: R | null;
  versions: R[];
}

/**
 * A base's records, loaded from the server and again by `reload` after an
 * action that changes them: null while loading, none for a base not created
 * yet (an empty id). `load` answers null for a base that is deleted or not
 * visible, which `missing` puts in the page's words; it must keep its
 * identity between renders (useCallback), or it is asked on every render.
 */
export function useRecords<R>(load: (baseId: string) => Promise<History<R> | null | undefined>, baseId: string, missing: string) {
  const [history, setHistory] = useState<History<R> | null>(null);
  const [loadError, setLoadError] = useState('');
  const isNew = baseId === '';

  const reload = useCallback(async () => {
    if (isNew) return;
    try {
      const h = await load(baseId);
      if (!h) {
        setLoadError(missing);
        return;
      }
      setHistory(h);
    } catch (err) {
      setLoadError(errorMessage(err));
    }
  }, [load, baseId, isNew, missing]);

  useEffect(() => {
    setHistory(null);
    setLoadError('');
    void reload();
  }, [reload]);

  const records = isNew ? [] : history ? recordsOf(history) : null;
  return { records, hasDraft: !!history?.draft, loadError, reload };
}
