import { useEffect, useRef } from 'react';

/**
 * The draft revision a page's edits build on: the loaded record's, or the
 * one a save made here returned. Every save and publish sends it, so that a
 * draft someone else saved meanwhile is refused with a conflict rather than
 * overwritten.
 */
export function useDraftRevision(loaded: number | undefined) {
  const revision = useRef(loaded);
  useEffect(() => {
    revision.current = loaded;
  }, [loaded]);
  return revision;
}
