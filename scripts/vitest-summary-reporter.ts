import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/**
 * With REQUIRE_ALL=1 (set by .ci/run), a skipped test fails the run: a CI box missing Chromium,
 * whisper, festival, PostgreSQL or the shared media must not pass silently.
 */
export const requireAll = () => process.env.REQUIRE_ALL === '1';

/**
 * Prints one plain closing line ("Tests: N passed, N failed, N skipped") that CI tooling reads.
 * A file whose setup failed, and every unhandled error, counts as a failure too, so the line
 * never says "0 failed" about a red run.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    const skippedNames: string[] = [];
    for (const mod of testModules) {
      let failedHere = 0;
      for (const test of mod.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') passed++;
        else if (result.state === 'failed') failedHere++;
        else {
          skipped++;
          const note = result.state === 'skipped' && result.note ? ` (${result.note})` : '';
          skippedNames.push(`${mod.moduleId}: ${test.fullName}${note}`);
        }
      }
      if (failedHere === 0 && mod.state() === 'failed') failedHere = 1;
      failed += failedHere;
    }
    if (requireAll() && skipped > 0) {
      process.stdout.write(
        `\nREQUIRE_ALL=1: ${skipped} skipped test(s) fail this run:\n${skippedNames
          .slice(0, 50)
          .map((name) => `  - ${name}`)
          .join('\n')}\n`,
      );
      failed += skipped;
      process.exitCode = 1;
    }
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
