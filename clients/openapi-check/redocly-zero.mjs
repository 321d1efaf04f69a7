// Reads `redocly lint --format=json` on stdin and fails on any problem,
// warnings included: redocly itself fails on errors only.
let input = '';
for await (const chunk of process.stdin) {
  input += chunk;
}
const report = JSON.parse(input);
for (const p of report.problems) {
  const where = p.location?.map((l) => l.pointer).join(', ') ?? '';
  console.error(`${p.severity} ${p.ruleId}: ${p.message} ${where}`);
}
const { errors, warnings, ignored } = report.totals;
console.log(`redocly: ${errors} errors, ${warnings} warnings, ${ignored} ignored (.redocly.lint-ignore.yaml)`);
if (errors + warnings > 0) {
  process.exit(1);
}
