import type { Text } from '@codemirror/state';

/** A position as the server reports it: 1-based line, 1-based column in Unicode code points. */
export interface SourcePosition {
  line: number;
  column: number;
}

export interface SourceRange {
  start: SourcePosition;
  end: SourcePosition;
}

/**
 * The document offset (in UTF-16 code units, as CodeMirror counts) of a
 * server position in doc; positions past a line's end or the document's
 * clamp to them.
 */
export function offsetOf(doc: Text, pos: SourcePosition): number {
  if (pos.line < 1) return 0;
  if (pos.line > doc.lines) return doc.length;
  const line = doc.line(pos.line);
  let offset = 0;
  let col = 1;
  for (const ch of line.text) {
    if (col >= pos.column) break;
    offset += ch.length;
    col++;
  }
  return line.from + offset;
}
