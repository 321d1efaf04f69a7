import { useEffect, useRef, useState } from 'react';
import { errorMessage, saysUnreachable } from './api';
import { useTries } from './reconnect';
import { replaceQuery, useLocation } from './router';

/** What a search box asks for: its text, trimmed, once typing has paused for a quarter of a second. */
export function useSearchTerm(query: string): string {
  const [search, setSearch] = useState(() => query.trim());
  useEffect(() => {
    const t = window.setTimeout(() => setSearch(query.trim()), 250);
    return () => window.clearTimeout(t);
  }, [query]);
  return search;
}

/**
 * A list's search box whose term is the address's `q`: the box starts from
 * it, and what is typed becomes it once typing pauses, going back to the
 * first page. When the address changes otherwise (a link to the list), the
 * box shows its term.
 */
export function useSearchParam(): { text: string; setText: (text: string) => void; term: string } {
  const { params } = useLocation();
  const term = params.get('q') ?? '';
  const [text, setText] = useState(term);
  const typed = useSearchTerm(text);
  // The term the box and the address last agreed on: the address's own
  // echo of what was typed is then not put back in the box, where more
  // may have been typed since.
  const agreed = useRef(term);
  useEffect(() => {
    if (typed === agreed.current) return;
    agreed.current = typed;
    replaceQuery({ q: typed, after: [] });
  }, [typed]);
  useEffect(() => {
    if (term === agreed.current) return;
    agreed.current = term;
    setText(term);
  }, [term]);
  return { text, setText, term };
}

/**
 * What find answers for a search box's text (trimmed), asked once typing
 * has paused for a fifth of a second: found is null while a search runs,
 * so that the matches of an earlier text are not offered for this one, and
 * error says why the last search failed. Nothing is asked while enabled is
 * false. find must keep its identity across renders; a new find asks
 * again.
 */
export function useServerSearch<T>(find: (query: string) => Promise<T>, query: string, enabled = true): { found: T | null; error: string } {
  const [found, setFound] = useState<T | null>(null);
  const [error, setError] = useState('');
  const { attempt, trying } = useTries(enabled && saysUnreachable(error));
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    setFound(null);
    if (!trying()) setError('');
    const t = window.setTimeout(() => {
      find(query.trim()).then(
        (r) => {
          if (!live) return;
          setError('');
          setFound(r);
        },
        (err: unknown) => live && setError(errorMessage(err)),
      );
    }, 200);
    return () => {
      live = false;
      window.clearTimeout(t);
    };
  }, [find, query, enabled, attempt]);
  return { found, error };
}
