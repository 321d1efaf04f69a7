// Unsaved editor text, kept in sessionStorage so that neither a reload nor a
// key that stops working mid-session loses it. Sample data belongs to the
// policy rather than to one record: it stays while the author moves between
// the draft and the versions.
import type { PolicyTestInput } from '@verdict/client';
import { readStored } from './sessionStore';

const PREFIX = 'verdict.draft.';
const SAMPLE_PREFIX = 'verdict.sample.';

export interface UnsavedDraft {
  /** The record the text was edited from; empty for a new policy. */
  recordId: string;
  /** The record's revision when editing began. */
  revision: number;
  name: string;
  rule: string;
  tests: PolicyTestInput[];
  /** The Schema tab's text; absent in drafts kept before the tab had one. */
  schema?: string;
}

export function loadDraft(key: string): UnsavedDraft | null {
  return readStored<UnsavedDraft>(PREFIX + key);
}

export function storeDraft(key: string, draft: UnsavedDraft): void {
  sessionStorage.setItem(PREFIX + key, JSON.stringify(draft));
}

export function dropDraft(key: string): void {
  sessionStorage.removeItem(PREFIX + key);
}

/** The sample data last used with a policy (by base id; "new" before it is created). */
export function loadSample(base: string): string | null {
  return sessionStorage.getItem(SAMPLE_PREFIX + base);
}

export function storeSample(base: string, sample: string): void {
  sessionStorage.setItem(SAMPLE_PREFIX + base, sample);
}
