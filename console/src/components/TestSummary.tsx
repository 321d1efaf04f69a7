/** How many of the tests last run pass. */
export function TestSummary({ report }: { report: { passed: boolean; total: number; failed: number } | null }) {
  if (!report) return null;
  return (
    <p className={`alert ${report.passed ? 'alert-ok' : 'alert-error'}`} role="status" data-testid="test-summary">
      {report.total - report.failed} of {report.total} tests pass.
    </p>
  );
}
