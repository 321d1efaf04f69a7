// Cursor paging over a connection: Next follows the page's end cursor,
// Previous goes back to the cursor the page before started after.
import { useEffect, useState } from 'react';
import { errorMessage, refusedCursor, saysUnreachable } from '../api';
import { returnFocus } from '../focus';
import { useTries } from '../reconnect';
import { replaceQuery, useLocation } from '../router';

interface Connection<T> {
  edges: { node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
}

export interface Pages<T> {
  /** null while the first load runs, and after a load failed (see error). */
  items: T[] | null;
  error: string;
  /**
   * Whether a load is running: the first, or that of another page, while
   * items still holds the rows of the page before.
   */
  loading: boolean;
  page: number;
  /** Whether error says the list refused the page asked for: one the address names that it did not give out. */
  pageRefused: boolean;
  hasNext: boolean;
  next: () => void;
  previous: () => void;
  first: () => void;
}

/** The words of a refused cursor: the list gives out every cursor, so only an address carries one it did not. */
const pageRefusedWords =
  'The address asks for a page this list did not give out: the part of the address that names the page (after=…) was cut short or changed, or comes from another list.';

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
  // What the last load that settled was asked for. Compared with what is
  // asked now in the same render as the change of page, so that no render
  // shows the rows before as if they were the page asked for.
  const [settled, setSettled] = useState<{ load: unknown; after: string | null; reload: unknown; attempt: number } | null>(null);
  // A page that could not reach the server is read again by itself.
  const { attempt, trying } = useTries(saysUnreachable(error));

  const after = cursors[cursors.length - 1] ?? null;
  useEffect(() => {
    let live = true;
    if (!trying()) setError('');
    const asked = { load, after, reload, attempt };
    load(after).then(
      (conn) => {
        if (!live) return;
        setError('');
        setItems(conn.edges.map((e) => e.node));
        setEnd({ hasNext: conn.pageInfo.hasNextPage, cursor: conn.pageInfo.endCursor ?? null });
        setSettled(asked);
      },
      (err: unknown) => {
        if (!live) return;
        // The rows of an earlier load are not what was asked for (a
        // refused filter, say): none are shown rather than those.
        setItems(null);
        setEnd({ hasNext: false, cursor: null });
        setError(refusedCursor(err) ? pageRefusedWords : errorMessage(err));
        setSettled(asked);
      },
    );
    return () => {
      live = false;
    };
  }, [load, after, reload, attempt]);

  const loading = settled?.load !== load || settled.after !== after || settled.reload !== reload || settled.attempt !== attempt;
  return {
    items,
    error,
    loading,
    page: cursors.length + 1,
    pageRefused: error === pageRefusedWords,
    hasNext: end.hasNext,
    next: () => end.cursor && setCursors([...cursors, end.cursor]),
    previous: () => setCursors(cursors.slice(0, -1)),
    first: () => setCursors([]),
  };
}

/**
 * Why a list's page could not be loaded; for a page the list did not give
 * out, the way to its first page. Its button leaves once that page is
 * asked for: focus goes to the page's main region, from whose top Tab goes on.
 */
export function PagesError<T>({ pages, id }: { pages: Pages<T>; id?: string }) {
  if (!pages.error) return null;
  return (
    <div className="alert alert-error" id={id} role="alert">
      {pages.error}
      {pages.pageRefused && (
        <div className="alert-actions">
          <button
            type="button"
            className="btn btn-small"
            onClick={() => {
              returnFocus(null);
              pages.first();
            }}
          >
            Go to the first page
          </button>
        </div>
      )}
    </div>
  );
}

/**
 * The attributes of the table that shows the pages' rows: while a page
 * loads, the rows on screen are the page before's, so the table says it is
 * busy and is dimmed.
 */
export function pagedTable<T>(pages: Pages<T>) {
  return { 'aria-busy': pages.loading, className: pages.loading ? 'table table-loading' : 'table' };
}

/**
 * Previous and Next, neither of which acts while a page loads: they would
 * act on the rows before. They are marked disabled with aria-disabled, not
 * the disabled attribute: a button disabled while focused drops focus to
 * the body, and a keyboard user paging with Enter would start again from
 * the top. The page shown is announced as it changes.
 */
export function Pager<T>({ pages }: { pages: Pages<T> }) {
  const canPrevious = !pages.loading && pages.page > 1;
  const canNext = !pages.loading && pages.hasNext;
  return (
    <div className="pager">
      <button type="button" className="btn" aria-disabled={!canPrevious} onClick={() => canPrevious && pages.previous()}>
        Previous page
      </button>
      <span className="muted" aria-live="polite" aria-atomic="true">
        Page {pages.page}
      </span>
      <button type="button" className="btn" aria-disabled={!canNext} onClick={() => canNext && pages.next()}>
        Next page
      </button>
    </div>
  );
}
