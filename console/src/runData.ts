/** Whether a JSON value is an object: what every run takes as its data. */
export function isJSONObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Why a list cannot run as a batch, naming its entries as noun ("sample",
 * "input"); '' when it can: a batch takes at least one item, each an object.
 */
export function batchProblem(items: unknown[], noun: string): string {
  if (items.length === 0) return `The list of ${noun}s is empty: put a JSON object in it for each run.`;
  const i = items.findIndex((d) => !isJSONObject(d));
  return i < 0 ? '' : `${noun.charAt(0).toUpperCase()}${noun.slice(1)} ${i + 1} of the list is not a JSON object.`;
}

/**
 * JSON.parse that refuses a number larger than any a rule can compare, as
 * the server does: JSON.parse reads it as Infinity, which JSON.stringify
 * would send as null.
 */
export function parseJSON(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => {
    if (typeof v === 'number' && !Number.isFinite(v)) {
      throw new RangeError('a number in it is larger than any a rule can compare (about 1.8e308)');
    }
    return v;
  });
}
