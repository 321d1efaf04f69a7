// Where JSON text stops being JSON, found by a scanner of its own: the
// browser's JSON.parse says where only in some of its messages, and others
// repeat the whole text. The scanner follows the JSON grammar (RFC 8259)
// and stops at the first character it cannot take, with words of its own
// that quote at most that character or the word it starts.

/** The first fault: its offset in the text and what is wrong there. */
export interface JsonFault {
  at: number;
  message: string;
}

class Fault extends Error {
  constructor(
    readonly at: number,
    message: string,
  ) {
    super(message);
  }
}

const WORD = /[\p{L}\p{N}_$]/u;

/** What stands at offset i, for a message: a word, a character, or the end of the text. */
function foundAt(text: string, i: number): string {
  if (i >= text.length) return 'the end of the text';
  const c = String.fromCodePoint(text.codePointAt(i)!);
  if (c === '\n' || c === '\r') return 'a line break';
  if (c < ' ') return 'a control character';
  const word = /^[\p{L}\p{N}_$]+/u.exec(text.slice(i, i + 21))?.[0];
  if (word) return word.length > 20 ? `“${word.slice(0, 20)}…”` : `“${word}”`;
  return `“${c}”`;
}

/** The first fault of text as JSON, or null when it is JSON a rule can read. */
export function jsonFault(text: string): JsonFault | null {
  let i = 0;
  const fail = (what: string, at = i): never => {
    throw new Fault(at, what);
  };
  const found = () => foundAt(text, i);
  const space = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const digits = () => {
    const from = i;
    while (i < text.length && text[i]! >= '0' && text[i]! <= '9') i++;
    if (i === from) fail(`expected a digit, found ${found()}`);
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail('the text ends inside a string: it needs its closing “"”');
      const c = text[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c < ' ') fail(`${found()} inside a string: close the string first, or write it as an escape such as \\n`);
      if (c === '\\') {
        const e = text[i + 1];
        if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('\\u in a string needs four hexadecimal digits');
          i += 6;
        } else fail(`an escape in a string is one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX, not \\${e ?? ''}`);
        continue;
      }
      i++;
    }
  };
  const number = () => {
    const from = i;
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
    // JSON.parse reads it as Infinity; the server refuses it (see parseJSON).
    if (!Number.isFinite(Number(text.slice(from, i)))) fail('a number in it is larger than any a rule can compare (about 1.8e308)', from);
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i) && !(i + word.length < text.length && WORD.test(text[i + word.length]!))) {
        i += word.length;
        return;
      }
    }
    fail(`expected a value, found ${found()}`);
  };
  const object = () => {
    i++;
    space();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      space();
      if (text[i] !== '"') fail(`expected a property name in double quotes, found ${found()}`);
      string();
      space();
      if (text[i] !== ':') fail(`expected “:” after the property name, found ${found()}`);
      i++;
      value();
      space();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return;
      }
      fail(`expected “,” or “}”, found ${found()}`);
    }
  };
  const array = () => {
    i++;
    space();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      value();
      space();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return;
      }
      fail(`expected “,” or “]”, found ${found()}`);
    }
  };
  try {
    value();
    space();
    if (i < text.length) fail(`unexpected ${found()} after the JSON value`);
    return null;
  } catch (err) {
    if (err instanceof Fault) return { at: err.at, message: err.message };
    return null; // nested too deep for the scanner: the parser's words stand
  }
}

/** The 1-based line and column of an offset. */
export function lineColumn(text: string, at: number): { line: number; column: number } {
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}
