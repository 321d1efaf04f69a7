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
