// Unsaved editor text, kept in sessionStorage so that neither a reload nor a
// key that stops working mid-session loses it.
import type { PolicyTestInput } from '@verdict/client';

const PREFIX = 'verdict.draft.';

export interface UnsavedDraft {
  /** The record the text was edited from; empty for a new policy. */
  recordId: string;
  /** The record's revision when editing began. */
  revision: number;
  name: string;
  rule: string;
  sample: string;
  tests: PolicyTestInput[];
}

export function loadDraft(key: string): UnsavedDraft | null {
  const raw = sessionStorage.getItem(PREFIX + key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as UnsavedDraft;
  } catch {
    return null;
  }
}

export function storeDraft(key: string, draft: UnsavedDraft): void {
  sessionStorage.setItem(PREFIX + key, JSON.stringify(draft));
}

export function dropDraft(key: string): void {
  sessionStorage.removeItem(PREFIX + key);
}
