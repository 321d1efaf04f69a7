// Unsaved flow edits and the last validation the server gave, kept in
// sessionStorage like the policy editor's text: neither a reload nor a key
// that stops working mid-session loses them.
import type { FlowTestInput } from '@verdict/client';
import type { Problem } from './problems';
import { readStored } from '../sessionStore';

const EDITS = 'verdict.flowEdits.';
const PROBLEMS = 'verdict.flowProblems.';

export interface FlowEdits {
  /** The record's revision when editing began; 0 for a new flow. */
  revision: number;
  name: string;
  description: string;
  definition: unknown;
  tests: FlowTestInput[];
}

export function loadFlowEdits(key: string): FlowEdits | null {
  return readStored<FlowEdits>(EDITS + key);
}

export function storeFlowEdits(key: string, edits: FlowEdits): void {
  sessionStorage.setItem(EDITS + key, JSON.stringify(edits));
}

export function dropFlowEdits(key: string): void {
  sessionStorage.removeItem(EDITS + key);
}

/** The problems the server last gave for a record, while it has not changed since; null when it gave none. */
export function loadProblems(recordId: string, revision: number): Problem[] | null {
  const kept = readStored<{ revision: number; problems: Problem[] }>(PROBLEMS + recordId);
  return kept && kept.revision === revision ? kept.problems : null;
}

export function storeProblems(recordId: string, revision: number, problems: Problem[]): void {
  sessionStorage.setItem(PROBLEMS + recordId, JSON.stringify({ revision, problems }));
}
