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
