// A small client-side router over the History API: routes are paths below
// the console's base, so a reload or a shared link opens the same screen
// (the server answers index.html for every path below /console/).
import { useEffect, useState } from 'react';
import type { AnchorHTMLAttributes, MouseEvent } from 'react';

export const BASE = '/console/';

export interface Location {
  /** The path below BASE, without leading or trailing slash. */
  path: string;
  params: URLSearchParams;
}

function current(): Location {
  const p = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : '';
  return { path: p.replace(/\/+$/, ''), params: new URLSearchParams(window.location.search) };
}

const listeners = new Set<() => void>();

// Whether the last change of path replaced the address in place (a new
// record given its id once saved) rather than going to another page.
let pathReplaced = false;
window.addEventListener('popstate', () => {
  pathReplaced = false;
});

/** Whether the path shown came by a navigation that replaced the one before in place. */
export function lastPathReplaced(): boolean {
  return pathReplaced;
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = BASE + to.replace(/^\//, '');
  const before = current().path;
  if (options.replace) {
    window.history.replaceState(null, '', url);
  } else {
    window.history.pushState(null, '', url);
  }
  if (current().path !== before) pathReplaced = !!options.replace;
  listeners.forEach((l) => l());
}

/**
 * Changes the current address's query in place (replaceState), leaving out
 * every parameter set to '' or to no values, so that a screen at its
 * defaults keeps a clean address. Lists keep their search, filters and page
 * there: Back and a reload then show them as they were.
 */
export function replaceQuery(changes: Record<string, string | readonly string[]>): void {
  const { path, params } = current();
  const before = params.toString();
  for (const [name, value] of Object.entries(changes)) {
    params.delete(name);
    for (const v of typeof value === 'string' ? [value] : value) if (v) params.append(name, v);
  }
  const query = params.toString();
  if (query !== before) navigate(query ? `${path}?${query}` : path, { replace: true });
}

/**
 * The tab of a page's tabs shown, kept in the address's `tab` (left out
 * for the first tab), so that a reload, Back and Forward show the same
 * tab; a name that is none of them shows the first.
 */
export function useTab<T extends string>(tabs: readonly T[]): [T, (tab: T) => void] {
  const { params } = useLocation();
  const asked = params.get('tab');
  const first = tabs[0]!;
  const tab = tabs.find((t) => t === asked) ?? first;
  return [tab, (t: T) => replaceQuery({ tab: t === first ? '' : t })];
}

export function useLocation(): Location {
  const [loc, setLoc] = useState(current);
  useEffect(() => {
    const update = () => setLoc(current());
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return loc;
}

/** An anchor to a console route: a real link (middle-click, copy) that navigates in place. */
export function Link({ to, onClick, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={BASE + to.replace(/^\//, '')} onClick={handle} {...rest} />;
}

/** Matches a path against a pattern such as "policies/:baseId"; null when it does not match. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = decodeURIComponent(got[i]!);
    if (w.startsWith(':')) params[w.slice(1)] = g;
    else if (w !== g) return null;
  }
  return params;
}
