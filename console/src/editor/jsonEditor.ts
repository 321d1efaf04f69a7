import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { bracketMatching, syntaxHighlighting, defaultHighlightStyle } from '@codemirror/language';
import { linter, lintGutter, lintKeymap } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, drawSelection, keymap, lineNumbers } from '@codemirror/view';
import { parseJSON } from '../runData';
import { runKeymap } from './keys';

/** A JSON editor; optional ones may be left blank, which their linter accepts. */
export function jsonEditorState(o: {
  doc: string;
  label: string;
  readOnly?: boolean;
  optional?: boolean;
  onChange: (text: string) => void;
  /** What Ctrl+Enter (⌘Enter) does: run what the page runs; nothing when absent. */
  onRun?: () => void;
}): EditorState {
  const parse = jsonParseLinter();
  return EditorState.create({
    doc: o.doc,
    extensions: [
      lineNumbers(),
      history(),
      drawSelection(),
      bracketMatching(),
      closeBrackets(),
      json(),
      syntaxHighlighting(defaultHighlightStyle),
      linter((view) => (o.optional && !view.state.doc.toString().trim() ? [] : parse(view)), { delay: 200 }),
      lintGutter(),
      keymap.of([...runKeymap(o.onRun), ...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...lintKeymap]),
      EditorView.contentAttributes.of({ 'aria-label': o.label }),
      EditorState.readOnly.of(o.readOnly ?? false),
      EditorView.editable.of(!o.readOnly),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) o.onChange(u.state.doc.toString());
      }),
    ],
  });
}

/** Where JSON text stops being JSON: a message with its line and column, or null when it parses. */
export function jsonProblem(text: string): string | null {
  try {
    parseJSON(text);
    return null;
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    const m = /position (\d+)/.exec(msg);
    if (!m) return msg;
    const pos = Number(m[1]);
    const before = text.slice(0, pos).split('\n');
    const line = before.length;
    const column = before[before.length - 1]!.length + 1;
    // The browser's message may say the place itself: said once, here.
    return `${msg.replace(/ at position \d+.*$/, '').replace(/ in JSON$/, '')} (line ${line}, column ${column})`;
  }
}
