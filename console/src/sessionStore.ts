/** What the console keeps in the browser starts with this, so that signing out can find all of it. */
const PREFIX = 'verdict.';
/** Whose work the tab holds: the viewer signed in when it was kept. */
const OWNER = PREFIX + 'owner';

/** A value kept in sessionStorage as JSON; null when there is none, or when what is there does not parse. */
export function readStored<T>(key: string): T | null {
  const raw = sessionStorage.getItem(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

/**
 * Removes everything the console keeps for the signed-in user (the key,
 * unsaved drafts, samples, flow edits and problems): none of it is for
 * whoever signs in next in this tab.
 */
export function forgetStored(): void {
  for (const store of [sessionStorage, localStorage]) {
    const keys = Array.from({ length: store.length }, (_, i) => store.key(i)).filter((k): k is string => k !== null && k.startsWith(PREFIX));
    keys.forEach((k) => store.removeItem(k));
  }
}

/** Whom the tab's kept work is for: a user of an organization, whichever of their keys, or an organization key. */
export type StoredOwner = { organization: string; user: string } | { organization: string; key: string };

/** Whether what the tab holds was kept for a user, whom another of their keys signs in as again. */
export function keptForUser(): boolean {
  const owner = readStored<StoredOwner>(OWNER);
  return owner !== null && 'user' in owner;
}

/**
 * Keeps what the tab holds only for the viewer it was kept for: a key that
 * stops working leaves its unsaved work for the same viewer to sign in
 * again, and nobody else who signs in next in the tab gets it.
 */
export function claimStored(owner: StoredOwner): void {
  const written = JSON.stringify(owner);
  if (sessionStorage.getItem(OWNER) === written) return;
  forgetStored();
  sessionStorage.setItem(OWNER, written);
}
