import { useCallback, useEffect, useRef, useState } from 'react';
import { FlowVersionsDocument, PolicyVersionsDocument } from '@verdict/client';
import { errorMessage, namesNothing, saysUnreachable } from './api';
import { useRetryWhileUnreachable } from './reconnect';
import type { Api } from './api';
import { historyReaching, historyReaches, olderHistory, recordsOf } from './versions';
import type { History, HistoryPage } from './versions';

/**
 * A base's records, loaded from the server and again by `reload` after an
 * action that changes them: null while loading, none for a base not created
 * yet (an empty id). Its history is loaded from the newest version back to
 * the records `wanted` names (see historyReaching): `reached` says whether
 * it is there yet. `older`, while
 * there are older versions, loads the next page of them (rejecting, with
 * what is loaded kept, when it cannot). `page` answers
 * null for a base that is deleted or not visible, which `missing` puts in
 * the page's words; it must keep its identity between renders
 * (useCallback), or it is asked on every render.
 */
export function useRecords<H extends History>(
  page: (baseId: string, first: number, after?: string) => Promise<H | null | undefined>,
  baseId: string,
  missing: string,
  wanted: readonly string[] = [],
) {
  const [history, setHistory] = useState<H | null>(null);
  const [loadError, setLoadError] = useState('');
  const isNew = baseId === '';
  const pageOf: HistoryPage<H> = useCallback((first, after) => page(baseId, first, after), [page, baseId]);
  // The ids as one value, so that a new array of the same ids changes nothing.
  const wantedKey = wanted.join(' ');

  // Counts the loads of a base anew: an answer that comes after the page
  // moved to another base (or loaded this one anew) is dropped.
  const loads = useRef(0);
  const settle = useCallback(
    async (loading: Promise<H | null | undefined>) => {
      const load = loads.current;
      try {
        const h = await loading;
        if (load !== loads.current) return;
        if (!h) {
          setLoadError(missing);
          return;
        }
        setLoadError('');
        setHistory(h);
      } catch (err) {
        if (load === loads.current) setLoadError(namesNothing(err) ? missing : errorMessage(err));
      }
    },
    [missing],
  );

  const reload = useCallback(async () => {
    if (!isNew) await settle(historyReaching(pageOf, wantedKey.split(' ')));
  }, [isNew, settle, pageOf, wantedKey]);

  useEffect(() => {
    loads.current++;
    setHistory(null);
    setLoadError('');
    if (!isNew) void settle(historyReaching(pageOf, []));
  }, [isNew, settle, pageOf]);

  // A load that could not reach the server is made again by itself: the
  // page says so until the records come, and then shows them.
  const retry = useCallback(() => {
    loads.current++;
    if (!isNew) void settle(historyReaching(pageOf, wantedKey.split(' ')));
  }, [isNew, settle, pageOf, wantedKey]);
  useRetryWhileUnreachable(saysUnreachable(loadError), retry);

  // The records wanted (a link to an old version) are reached from what is
  // loaded, the first page or more: moving to another record of the base
  // loads no page again. A history that reaches them already is answered
  // as it is, which changes nothing.
  useEffect(() => {
    if (history) void settle(historyReaching(pageOf, wantedKey.split(' '), history));
  }, [history, pageOf, wantedKey, settle]);

  // A failure is the caller's to show: the records loaded stay.
  const older = history?.nextCursor
    ? async () => {
        const load = loads.current;
        const h = await olderHistory(pageOf, history);
        if (h && load === loads.current) setHistory(h);
      }
    : null;
  const records = isNew ? [] : history ? recordsOf<H['versions'][number]>(history) : null;
  const reached = !history || historyReaches(history, wanted);
  return { records, hasDraft: !!history?.draft, loadError, reload, older, reached };
}

const missingPolicy = 'There is no such policy: it was deleted, or it is not visible to you.';
const missingFlow = 'There is no such flow: it was deleted, or it is not visible to you.';

/** A policy's records, as useRecords loads them. */
export function usePolicyRecords(api: Api, baseId: string, wanted: readonly string[] = []) {
  const page = useCallback(
    (id: string, first: number, after?: string) => api.request(PolicyVersionsDocument, { id, first, after }).then((r) => r.policyVersions),
    [api],
  );
  return useRecords(page, baseId, missingPolicy, wanted);
}

/** A flow's records, as useRecords loads them. */
export function useFlowRecords(api: Api, baseId: string, wanted: readonly string[] = []) {
  const page = useCallback(
    (id: string, first: number, after?: string) => api.request(FlowVersionsDocument, { id, first, after }).then((r) => r.flowVersions),
    [api],
  );
  return useRecords(page, baseId, missingFlow, wanted);
}
