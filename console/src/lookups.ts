import { useCallback, useEffect, useState } from 'react';
import { NodeDocument } from '@verdict/client';
import { useSession } from './session';
import { errorMessage, saysUnreachable } from './api';
import { useRetryWhileUnreachable } from './reconnect';

/**
 * Looks ids up, once each, as a screen comes to show them: the map holds
 * what lookup answered for each id looked up so far, null when it failed.
 * An id that could not be looked up for want of a server is left out, and
 * looked up again by itself (see reconnect.ts). lookup must keep its
 * identity across renders.
 */
export function useLookups<T>(ids: string[], lookup: (id: string) => Promise<T | null>): Map<string, T | null> {
  const [known, setKnown] = useState(() => new Map<string, T | null>());
  const [unreachable, setUnreachable] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useRetryWhileUnreachable(unreachable, () => setAttempt((a) => a + 1));
  const wanted = [...new Set(ids.filter((id) => !known.has(id)))].sort().join(',');
  useEffect(() => {
    if (!wanted) {
      setUnreachable(false);
      return;
    }
    let live = true;
    void Promise.all(
      wanted.split(',').map((id) =>
        lookup(id).then(
          (found) => ({ id, found, unreachable: false }),
          (err: unknown) => ({ id, found: null, unreachable: saysUnreachable(errorMessage(err)) }),
        ),
      ),
    ).then((answers) => {
      if (!live) return;
      setKnown((k) => new Map([...k, ...answers.filter((a) => !a.unreachable).map((a) => [a.id, a.found] as const)]));
      setUnreachable(answers.some((a) => a.unreachable));
    });
    return () => {
      live = false;
    };
  }, [lookup, wanted, attempt]);
  return known;
}

/**
 * A lookup, for useLookups, that names a user by their email and an API key
 * by its name, asking the server for the node of the id: null for an id the
 * server does not find (a former member, say) or that is neither. Only
 * admins may read others' users and keys.
 */
export function useNameLookup(): (id: string) => Promise<string | null> {
  const { api } = useSession();
  return useCallback(
    async (id: string) => {
      const node = (await api.request(NodeDocument, { id })).node;
      if (node?.__typename === 'User') return node.email;
      if (node?.__typename === 'APIKey') return node.name;
      return null;
    },
    [api],
  );
}
