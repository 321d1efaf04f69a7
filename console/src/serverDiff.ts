import { useEffect, useState } from 'react';
import { errorMessage, saysUnreachable } from './api';
import { useTries } from './reconnect';

/**
 * The server's comparison of two records of one base, asked again whenever
 * either side changes; an answer for an earlier pair is dropped. `load` must
 * keep its identity between renders (useCallback), or it is asked on every
 * render. A null answer means one of the records is no longer visible.
 */
export function useServerDiff<D>(
  load: (id: string, otherId: string) => Promise<D | null | undefined>,
  fromId: string | undefined,
  toId: string | undefined,
): [diff: D | null, error: string] {
  const [diff, setDiff] = useState<D | null>(null);
  const [error, setError] = useState('');
  const { attempt, trying } = useTries(saysUnreachable(error));
  useEffect(() => {
    if (!fromId || !toId) return;
    let live = true;
    if (!trying()) {
      setDiff(null);
      setError('');
    }
    load(fromId, toId).then(
      (d) => {
        if (!live) return;
        setError(d ? '' : 'One of the records is no longer visible.');
        if (d) setDiff(d);
      },
      (err) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [load, fromId, toId, attempt]);
  return [diff, error];
}
