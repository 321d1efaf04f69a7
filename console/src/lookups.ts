import { useEffect, useState } from 'react';

/**
 * Looks ids up, once each, as a screen comes to show them: the map holds
 * what lookup answered for each id looked up so far, null when it failed.
 * lookup must keep its identity across renders.
 */
export function useLookups<T>(ids: string[], lookup: (id: string) => Promise<T | null>): Map<string, T | null> {
  const [known, setKnown] = useState(() => new Map<string, T | null>());
  const wanted = [...new Set(ids.filter((id) => !known.has(id)))].sort().join(',');
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    void Promise.all(
      wanted.split(',').map((id) =>
        lookup(id).then(
          (found) => [id, found] as const,
          () => [id, null] as const,
        ),
      ),
    ).then((found) => {
      if (live) setKnown((k) => new Map([...k, ...found]));
    });
    return () => {
      live = false;
    };
  }, [lookup, wanted]);
  return known;
}
