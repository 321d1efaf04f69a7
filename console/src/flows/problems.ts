// The server's validation messages (docs/flows.md lists them) name the node
// they concern; the graph shows each on its node, or on the edges it is
// about, and keeps the rest in a list above the graph.
import { edgesOf } from './definition';
import type { Definition } from './definition';
import { plural } from '../format';

export type Severity = 'error' | 'warning';

export interface Problem {
  severity: Severity;
  message: string;
}

/**
 * A problem in words led by its severity ("Error: …"): the colour of an
 * error and of a warning is not all that tells them apart.
 */
export function problemText(p: Problem): string {
  return `${p.severity === 'error' ? 'Error' : 'Warning'}: ${p.message}`;
}

/** How many errors and warnings there are: "2 errors", "1 error and 1 warning". */
export function problemCounts(problems: Problem[]): string {
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  return [errors && plural(errors, 'error', 'errors'), warnings && plural(warnings, 'warning', 'warnings')].filter(Boolean).join(' and ');
}

export interface PlacedProblems {
  byNode: Map<string, Problem[]>;
  byEdge: Map<string, Problem[]>;
  /** Problems of the whole definition, or naming a node the graph does not have. */
  general: Problem[];
}

const referenced = /^Referenced node "([^"]*)" not found/;
const notATarget = /^Node "([^"]*)" cannot be a branch target/;
const namesNode = /\b[Nn]ode(?: id)? "([^"]*)"/;

function push<K>(m: Map<K, Problem[]>, k: K, p: Problem) {
  m.set(k, [...(m.get(k) ?? []), p]);
}

export function placeProblems(d: Definition, problems: Problem[]): PlacedProblems {
  const out: PlacedProblems = { byNode: new Map(), byEdge: new Map(), general: [] };
  const ids = new Set(d.nodes.map((n) => n.id));
  const edges = edgesOf(d);
  for (const p of problems) {
    const missing = referenced.exec(p.message);
    if (missing) {
      // The branch leads nowhere the graph can draw: the nodes it leaves from carry it.
      const from = edges.filter((e) => e.target === missing[1]);
      if (from.length === 0) out.general.push(p);
      for (const e of from) push(out.byNode, e.source, p);
      continue;
    }
    const target = notATarget.exec(p.message);
    if (target) {
      for (const e of edges.filter((e) => e.target === target[1])) push(out.byEdge, e.id, p);
      if (ids.has(target[1]!)) push(out.byNode, target[1]!, p);
      continue;
    }
    const named = namesNode.exec(p.message);
    if (named && ids.has(named[1]!)) push(out.byNode, named[1]!, p);
    else out.general.push(p);
  }
  return out;
}

/** The node of the definition a message names (`node "x": …`, `Node "x" is …`), if any. */
export function nodeNamed(message: string, d: Definition): string | null {
  const named = namesNode.exec(message)?.[1];
  return named !== undefined && d.nodes.some((n) => n.id === named) ? named : null;
}

export function problemsOf(validation: { errors: string[]; warnings: string[] }): Problem[] {
  return [
    ...validation.errors.map((message) => ({ severity: 'error' as const, message })),
    ...validation.warnings.map((message) => ({ severity: 'warning' as const, message })),
  ];
}

// How a saved draft reports a policy reference that does not resolve for
// the one who saved it: only a warning there, but a publish is refused for
// it (docs/flows.md, "Validation").
const unresolvedPolicy = /^policy "[^"]*" referenced by node "[^"]*" not found$/;

/**
 * Why the server would refuse to publish a definition with these problems,
 * or '' when none of them stops a publish: any error does, and so does a
 * policy reference that does not resolve; other warnings do not.
 */
export function publishRefusal(problems: Problem[]): string {
  if (problems.some((p) => p.severity === 'error')) return 'The definition has errors: the server publishes it once they are fixed.';
  if (problems.some((p) => unresolvedPolicy.test(p.message))) {
    return 'A node’s policy cannot be found: the server publishes the flow once every policy it references can be found.';
  }
  return '';
}
