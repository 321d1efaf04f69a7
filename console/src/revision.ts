import { useEffect, useRef } from 'react';

/**
 * The draft revision a page's edits build on: the one they began from (the
 * loaded record's, or an older one for edits kept from before a reload),
 * then the one a save made here returned, or the record's once it is
 * loaded again. Every save and publish sends it, so that a draft someone
 * else saved meanwhile is refused with a conflict rather than overwritten.
 */
export function useDraftRevision(loaded: number | undefined, began: number | undefined = loaded) {
  const revision = useRef(began);
  const seen = useRef(loaded);
  useEffect(() => {
    if (seen.current === loaded) return;
    seen.current = loaded;
    revision.current = loaded;
  }, [loaded]);
  return revision;
}
