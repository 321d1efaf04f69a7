import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { bracketMatching, syntaxHighlighting, defaultHighlightStyle } from '@codemirror/language';
import { linter, lintGutter, lintKeymap } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, drawSelection, keymap, lineNumbers } from '@codemirror/view';
import { parseJSON } from '../runData';
import { jsonFault, lineColumn } from './jsonPlace';
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

/**
 * Where JSON text stops being JSON: what is wrong and its line and column,
 * or null when it parses. The place is found by a scanner of the console's
 * own: the browser's message says it only at times, and some repeat the
 * whole text.
 */
export function jsonProblem(text: string): string | null {
  try {
    parseJSON(text);
    return null;
  } catch (err) {
    const fault = jsonFault(text);
    if (fault) {
      const { line, column } = lineColumn(text, fault.at);
      return `${fault.message} (line ${line}, column ${column})`;
    }
    // Only text nested too deep for the scanner comes here: the browser's words, without any text they repeat.
    const msg = err instanceof Error ? err.message : String(err);
    return msg.replace(/,? ".*" is not valid JSON$/s, '').slice(0, 200);
  }
}
