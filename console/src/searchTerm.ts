import { useEffect, useState } from 'react';

/** What a search box asks for: its text, trimmed, once typing has paused for a quarter of a second. */
export function useSearchTerm(query: string): string {
  const [search, setSearch] = useState('');
  useEffect(() => {
    const t = window.setTimeout(() => setSearch(query.trim()), 250);
    return () => window.clearTimeout(t);
  }, [query]);
  return search;
}
