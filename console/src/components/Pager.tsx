// Cursor paging over a connection: Next follows the page's end cursor,
// Previous goes back to the cursor the page before started after.
import { useEffect, useState } from 'react';
import { errorMessage } from '../api';
import { replaceQuery, useLocation } from '../router';

interface Connection<T> {
  edges: { node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
}

export interface Pages<T> {
  /** null while the first load runs, and after a load failed (see error). */
  items: T[] | null;
  error: string;
  /** Whether the page's load is running. */
  loading: boolean;
  page: number;
  hasNext: boolean;
  next: () => void;
  previous: () => void;
}

/**
 * Pages of what load gives, the cursors of the pages before the one shown
 * kept in the page's state. A new load (new filters) starts again at the
 * first page; a new reload value reads the current page again.
 */
export function usePages<T>(load: (after: string | null) => Promise<Connection<T>>, reload: unknown = null): Pages<T> {
  const [cursors, setCursors] = useState<string[]>([]);
  useEffect(() => setCursors([]), [load]);
  return usePagesAfter(load, reload, cursors, setCursors);
}

/**
 * Pages of what load gives, the cursors of the pages before the one shown
 * kept in the address's query (`after`, one for each), so that Back and a
 * reload show the same page. A change of filters must remove them in the
 * same change of the address, to start again at the first page.
 */
export function useAddressPages<T>(load: (after: string | null) => Promise<Connection<T>>, reload: unknown = null): Pages<T> {
  const { params } = useLocation();
  return usePagesAfter(load, reload, params.getAll('after'), (cursors) => replaceQuery({ after: cursors }));
}

/** cursors[i] is the cursor the page i + 2 starts after; the first page has none. */
function usePagesAfter<T>(
  load: (after: string | null) => Promise<Connection<T>>,
  reload: unknown,
  cursors: readonly string[],
  setCursors: (cursors: string[]) => void,
): Pages<T> {
  const [items, setItems] = useState<T[] | null>(null);
  const [end, setEnd] = useState<{ hasNext: boolean; cursor: string | null }>({ hasNext: false, cursor: null });
  const [error, setError] = useState('');

  const after = cursors[cursors.length - 1] ?? null;
  useEffect(() => {
    let live = true;
    setError('');
    load(after).then(
      (conn) => {
        if (!live) return;
        setItems(conn.edges.map((e) => e.node));
        setEnd({ hasNext: conn.pageInfo.hasNextPage, cursor: conn.pageInfo.endCursor ?? null });
      },
      (err: unknown) => {
        if (!live) return;
        // The rows of an earlier load are not what was asked for (a
        // refused filter, say): none are shown rather than those.
        setItems(null);
        setEnd({ hasNext: false, cursor: null });
        setError(errorMessage(err));
      },
    );
    return () => {
      live = false;
    };
  }, [load, after, reload]);

  return {
    items,
    error,
    loading: items === null && !error,
    page: cursors.length + 1,
    hasNext: end.hasNext,
    next: () => end.cursor && setCursors([...cursors, end.cursor]),
    previous: () => setCursors(cursors.slice(0, -1)),
  };
}

export function Pager<T>({ pages }: { pages: Pages<T> }) {
  return (
    <div className="pager">
      <button type="button" className="btn" disabled={pages.page <= 1} onClick={pages.previous}>
        Previous page
      </button>
      <span className="muted">Page {pages.page}</span>
      <button type="button" className="btn" disabled={!pages.hasNext} onClick={pages.next}>
        Next page
      </button>
    </div>
  );
}
