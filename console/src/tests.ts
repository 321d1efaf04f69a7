/** A record's stored tests as the input that stores them again (without the fields the server adds). */
export function testsOf<E>(r: { tests: { name: string; data: unknown; expect: E }[] } | null): { name: string; data: unknown; expect: E }[] {
  return (r?.tests ?? []).map((t) => ({ name: t.name, data: t.data, expect: t.expect }));
}

/** The name of a test made from a run's sample data: "Sample n", n counting on from the number of tests to the first name no test has. */
export function sampleName(tests: { name: string }[]): string {
  const taken = new Set(tests.map((t) => t.name));
  let n = tests.length + 1;
  while (taken.has(`Sample ${n}`)) n++;
  return `Sample ${n}`;
}
