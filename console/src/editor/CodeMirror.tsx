import { useEffect, useRef } from 'react';
import { Compartment, StateEffect } from '@codemirror/state';
import type { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import type { InvalidAttributes } from '../components/FieldError';

/**
 * Mounts a CodeMirror view. The view is made again from makeState when
 * resetKey changes (another record opened); otherwise it keeps its own
 * state, and the parent hears of edits through the state's listeners.
 * invalid marks the editor's text box as a field with an error (see
 * invalidField).
 */
export function CodeMirror({
  makeState,
  resetKey,
  className,
  invalid = {},
  onView,
}: {
  makeState: () => EditorState;
  resetKey: string;
  className?: string;
  invalid?: InvalidAttributes;
  onView?: (view: EditorView | null) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const make = useRef(makeState);
  make.current = makeState;
  const view = useRef<EditorView | null>(null);
  // The attributes change with the page's state, which the editor's own does not hold.
  const attributes = useRef(new Compartment());
  const invalidKey = JSON.stringify(invalid);
  useEffect(() => {
    const v = new EditorView({ state: make.current(), parent: host.current! });
    v.dispatch({ effects: StateEffect.appendConfig.of(attributes.current.of(EditorView.contentAttributes.of(invalid))) });
    view.current = v;
    onView?.(v);
    return () => {
      onView?.(null);
      view.current = null;
      v.destroy();
    };
  }, [resetKey]);
  useEffect(() => {
    view.current?.dispatch({ effects: attributes.current.reconfigure(EditorView.contentAttributes.of(invalid)) });
  }, [invalidKey]);
  return <div ref={host} className={className} />;
}
