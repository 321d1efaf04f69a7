// The rule editor: CodeMirror 6 with the engine's own tokens as highlighting
// and its diagnostics as squiggles, both from one checkRule request per
// change (the diagnostics alone for a text too large to highlight), and
// completion of operator phrases, selectors and properties.
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { lintGutter, lintKeymap, setDiagnostics } from '@codemirror/lint';
import type { Diagnostic } from '@codemirror/lint';
import { ChangeSet, EditorState, StateEffect, StateField } from '@codemirror/state';
import type { Extension, Text } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, drawSelection, highlightActiveLine, keymap, lineNumbers, placeholder, showPanel } from '@codemirror/view';
import type { DecorationSet, Panel, ViewUpdate } from '@codemirror/view';
import { runKeymap } from './keys';
import { offsetOf } from './positions';
import type { SourceRange } from './positions';
import { errorMessage, saysUnreachable } from '../api';
import { whenReachable } from '../reconnect';

export interface RuleToken {
  kind: string;
  range: SourceRange;
}

export interface RuleDiagnostic {
  severity: 'ERROR' | 'WARNING' | 'INFO';
  code: string;
  message: string;
  range: SourceRange;
  suggestions: string[];
}

export interface RuleCheck {
  /** null when the text was checked without its tokens. */
  tokens: RuleToken[] | null;
  diagnostics: RuleDiagnostic[];
}

/**
 * Checks a rule text: its tokens and diagnostics when tokens is true, its
 * diagnostics alone otherwise. Asked for tokens, it may still answer none
 * (null): the server would not answer the tokens of a text that has very
 * many of them.
 */
export type CheckFn = (rule: string, tokens: boolean) => Promise<RuleCheck>;

/** Asks the editor to check its text again, unchanged: what the text is checked against has changed. */
export const recheck = StateEffect.define<null>();

/** The operator phrases of the rule language, offered as completions. */
export const operatorPhrases = [
  'is greater than or equal to',
  'is less than or equal to',
  'is greater than',
  'is less than',
  'is at least',
  'is no more than',
  'is exactly equal to',
  'is equal to',
  'is the same as',
  'is not equal to',
  'is not the same as',
  'is not in',
  'is not empty',
  'is later than',
  'is earlier than',
  'is within',
  'is older than',
  'is younger than',
  'is in',
  'is empty',
  'contains',
];

/** Names the sample data offers: selectors (objects) and properties (their keys). */
export interface DataNames {
  selectors: string[];
  properties: string[];
}

const setTokens = StateEffect.define<DecorationSet>();

const tokenField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    value = value.map(tr.changes);
    for (const e of tr.effects) if (e.is(setTokens)) value = e.value;
    return value;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/** Whether the text is shown without highlighting: the server answered its diagnostics but not its tokens. */
const setUnhighlighted = StateEffect.define<boolean>();

const unhighlightedField = StateField.define<boolean>({
  create: () => false,
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setUnhighlighted)) value = e.value;
    return value;
  },
  // One quiet line under the text while it lasts, said once to a screen
  // reader as it appears: the text is the same for as long as it shows.
  provide: (f) => showPanel.from(f, (on) => (on ? unhighlightedPanel : null)),
});

function unhighlightedPanel(): Panel {
  const dom = document.createElement('div');
  dom.className = 'cm-rule-note';
  dom.setAttribute('role', 'status');
  dom.textContent = 'Highlighting is off: this text is too large to highlight. Its problems are still underlined and listed.';
  return { dom, top: false };
}

const tokenMarks = new Map<string, Decoration>();
function tokenMark(kind: string): Decoration {
  let m = tokenMarks.get(kind);
  if (!m) {
    m = Decoration.mark({ class: `tok tok-${kind.replace(/[^a-z]/g, '')}` });
    tokenMarks.set(kind, m);
  }
  return m;
}

/**
 * Sends the text for checking on every change, one request at a time: while
 * a request is out, later changes wait and are sent together when it
 * returns. A result is mapped through the edits made since its request
 * left, so squiggles stay on their words while the user types.
 *
 * A text whose tokens the server refused (it charges each token against the
 * bound of one request's answer) is checked for its diagnostics alone from
 * then on, unhighlighted, until it is at most half as long: the number of
 * tokens grows with the length, so asking for them again on each keystroke
 * would only be refused again, each time after the server read the whole
 * text, while a text cut to half its length may well be answered.
 */
function checker(check: CheckFn) {
  return ViewPlugin.fromClass(
    class {
      inFlight = false;
      stale = false;
      // Edits made since the request in flight took its text.
      since: ChangeSet | null = null;
      destroyed = false;
      // The length of the last text whose tokens were refused; null while tokens are answered.
      refusedAt: number | null = null;
      // Set while a check that could not reach the server waits to be sent again (see reconnect.ts).
      waiting: (() => void) | null = null;

      constructor(readonly view: EditorView) {
        this.send();
      }

      update(u: ViewUpdate) {
        if (!u.docChanged && !u.transactions.some((tr) => tr.effects.some((e) => e.is(recheck)))) return;
        if (this.inFlight) {
          this.stale = true;
          this.since = this.since ? this.since.compose(u.changes) : u.changes;
        } else {
          this.send();
        }
      }

      send() {
        this.waiting?.();
        this.waiting = null;
        const doc = this.view.state.doc;
        this.inFlight = true;
        this.stale = false;
        this.since = null;
        const tokens = this.refusedAt === null || doc.length <= this.refusedAt / 2;
        check(doc.toString(), tokens).then(
          (res) => this.apply(doc, res, tokens),
          (err: unknown) => {
            // The text is checked again once the server may answer, so that
            // its highlighting and problems are those of the text shown.
            if (!this.destroyed && saysUnreachable(errorMessage(err))) {
              this.waiting = whenReachable(() => {
                if (!this.inFlight && !this.destroyed) this.send();
              });
            }
          },
        ).finally(() => {
          this.inFlight = false;
          if (this.stale && !this.destroyed) this.send();
        });
      }

      apply(doc: Text, res: RuleCheck, askedTokens: boolean) {
        if (this.destroyed) return;
        if (askedTokens) this.refusedAt = res.tokens === null ? doc.length : null;
        const map = (pos: number, assoc: number) => (this.since ? this.since.mapPos(pos, assoc) : pos);
        const len = this.view.state.doc.length;
        const clamp = (n: number) => Math.max(0, Math.min(len, n));
        const marks = [];
        for (const t of res.tokens ?? []) {
          const from = clamp(map(offsetOf(doc, t.range.start), 1));
          const to = clamp(map(offsetOf(doc, t.range.end), -1));
          if (to > from) marks.push(tokenMark(t.kind).range(from, to));
        }
        const diagnostics: Diagnostic[] = res.diagnostics.map((d) => {
          const from = clamp(map(offsetOf(doc, d.range.start), 1));
          const to = Math.max(from, clamp(map(offsetOf(doc, d.range.end), -1)));
          return {
            from,
            to,
            severity: d.severity === 'ERROR' ? 'error' : d.severity === 'WARNING' ? 'warning' : 'info',
            source: d.code,
            message: d.message,
            actions: d.suggestions.map((s) => ({
              name: `Replace with “${s}”`,
              apply(view: EditorView, from: number, to: number) {
                view.dispatch({ changes: { from, to, insert: s }, selection: { anchor: from + s.length } });
                view.focus();
              },
            })),
          };
        });
        this.view.dispatch(setDiagnostics(this.view.state, diagnostics), {
          effects: [setTokens.of(Decoration.set(marks, true)), setUnhighlighted.of(res.tokens === null)],
        });
      }

      destroy() {
        this.destroyed = true;
        this.waiting?.();
        this.waiting = null;
      }
    },
  );
}

function humanize(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
    .trim();
}

/** The selectors and properties of sample data: objects by their dotted paths, and every key below them. */
function namesOf(data: unknown): DataNames {
  const selectors = new Set<string>();
  const properties = new Set<string>();
  const walk = (v: unknown, path: string, depth: number) => {
    if (depth > 6 || v === null || typeof v !== 'object' || Array.isArray(v)) return;
    if (path) selectors.add(path);
    for (const [k, child] of Object.entries(v)) {
      if (path) properties.add(humanize(k));
      walk(child, path ? `${path}.${k}` : k, depth + 1);
    }
  };
  walk(data, '', 0);
  return { selectors: [...selectors].sort(), properties: [...properties].sort() };
}

/** How many samples of a list namesOfSample reads: the names of a list of like objects are in its first ones. */
const SAMPLES_READ = 20;

/** The names of sample data: an object's, or those of the first objects of a list of samples. */
export function namesOfSample(sample: unknown): DataNames {
  if (!Array.isArray(sample)) return namesOf(sample);
  return sample.slice(0, SAMPLES_READ).reduce<DataNames>((names, item) => mergeNames(names, namesOf(item)), { selectors: [], properties: [] });
}

/** The selectors and properties a JSON Schema lists, as namesOf finds them in data: through the properties of its object schemas. */
export function namesOfSchema(schema: unknown): DataNames {
  // The data the schema describes, as far as its listed names go.
  const skeleton = (s: unknown, depth: number): unknown => {
    if (depth > 6 || s === null || typeof s !== 'object' || Array.isArray(s)) return null;
    const props = (s as { properties?: unknown }).properties;
    if (props === null || typeof props !== 'object' || Array.isArray(props)) return null;
    return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, skeleton(v, depth + 1)]));
  };
  return namesOf(skeleton(schema, 0));
}

/** Both sets of names, each name once. */
export function mergeNames(a: DataNames, b: DataNames): DataNames {
  return {
    selectors: [...new Set([...a.selectors, ...b.selectors])].sort(),
    properties: [...new Set([...a.properties, ...b.properties])].sort(),
  };
}

function completions(names: () => DataNames) {
  return (ctx: CompletionContext): CompletionResult | null => {
    const sel = ctx.matchBefore(/\*\*[\w.]*$/);
    if (sel) {
      const opts: Completion[] = names().selectors.map((s) => ({ label: `**${s}**`, type: 'class', detail: 'selector' }));
      return { from: sel.from, to: ctx.pos, options: opts, validFor: /^\*\*[\w.]*$/ };
    }
    const prop = ctx.matchBefore(/__[\w ]*$/);
    if (prop) {
      const opts: Completion[] = names().properties.map((p) => ({ label: `__${p}__`, type: 'property', detail: 'property' }));
      return { from: prop.from, to: ctx.pos, options: opts, validFor: /^__[\w ]*$/ };
    }
    const phrase = ctx.matchBefore(/\b(is|contains)( [a-z]*)*$/);
    if (phrase && (phrase.from < phrase.to || ctx.explicit)) {
      const opts: Completion[] = operatorPhrases.map((p) => ({ label: p, type: 'keyword', detail: 'operator' }));
      return { from: phrase.from, to: ctx.pos, options: opts };
    }
    const word = ctx.matchBefore(/\w*$/);
    if (!ctx.explicit || !word) return null;
    return {
      from: word.from,
      options: [
        ...operatorPhrases.map((p) => ({ label: p, type: 'keyword', detail: 'operator' })),
        ...names().selectors.map((s) => ({ label: `**${s}**`, type: 'class', detail: 'selector' })),
        ...names().properties.map((p) => ({ label: `__${p}__`, type: 'property', detail: 'property' })),
      ],
    };
  };
}

export interface RuleEditorOptions {
  doc: string;
  readOnly: boolean;
  label: string;
  check: CheckFn | null;
  names: () => DataNames;
  onChange: (text: string) => void;
  /** What Ctrl+Enter (⌘Enter) does (see runKeymap). */
  onRun?: () => void;
}

export function ruleEditorState(o: RuleEditorOptions): EditorState {
  const extensions: Extension[] = [
    lineNumbers(),
    history(),
    drawSelection(),
    highlightActiveLine(),
    closeBrackets(),
    EditorView.lineWrapping,
    tokenField,
    unhighlightedField,
    lintGutter(),
    autocompletion({ override: [completions(o.names)], icons: false }),
    keymap.of([...runKeymap(o.onRun), ...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, ...lintKeymap]),
    placeholder('A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.'),
    EditorView.contentAttributes.of({ 'aria-label': o.label }),
    EditorState.readOnly.of(o.readOnly),
    EditorView.editable.of(!o.readOnly),
    EditorView.updateListener.of((u) => {
      if (u.docChanged) o.onChange(u.state.doc.toString());
    }),
  ];
  if (o.check) extensions.push(checker(o.check));
  return EditorState.create({ doc: o.doc, extensions });
}
