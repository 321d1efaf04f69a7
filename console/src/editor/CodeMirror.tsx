import { useEffect, useRef } from 'react';
import type { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';

/**
 * Mounts a CodeMirror view. The view is made again from makeState when
 * resetKey changes (another record opened); otherwise it keeps its own
 * state, and the parent hears of edits through the state's listeners.
 */
export function CodeMirror({
  makeState,
  resetKey,
  className,
  onView,
}: {
  makeState: () => EditorState;
  resetKey: string;
  className?: string;
  onView?: (view: EditorView | null) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const make = useRef(makeState);
  make.current = makeState;
  useEffect(() => {
    const view = new EditorView({ state: make.current(), parent: host.current! });
    onView?.(view);
    return () => {
      onView?.(null);
      view.destroy();
    };
  }, [resetKey]);
  return <div ref={host} className={className} />;
}
