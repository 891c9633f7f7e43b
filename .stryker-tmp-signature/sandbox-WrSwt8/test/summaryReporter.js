/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, after jest's own summary,
 * so CI logs that do not parse jest's format still get the counts.
 */
// @ts-nocheck

'use strict';

class SummaryReporter {
	onRunComplete(_contexts, results) {
		const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
		process.stdout.write(
			`tests: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests + numTodoTests} skipped\n`,
		);
	}
}

module.exports = SummaryReporter;
