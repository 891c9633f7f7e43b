#!/usr/bin/env node
/**
 * `npm run test:mutation [-- --full] [-- <module path> ...]`: mutation testing of the cores
 * (docs/testing.md, "Mutation testing"). One Stryker run per module of test/mutation/modules.js,
 * each against that module's own tests; paths pick modules.
 *
 * Incremental: each module's results are kept in test/mutation/incremental/<module>.json, which is
 * committed. A run tests again only the mutants whose code or covering tests changed since the
 * recorded run and reuses the rest, so CI checks every core on every run in minutes; `--full`
 * tests every mutant again and rewrites the record. Commit the updated records with the change.
 * A record keeps what the next run compares (sources, mutants, their status and tests), not the
 * failure text of each killed mutant (it names the run's temporary sandbox), so a run over an
 * unchanged tree leaves the record byte for byte as it was.
 *
 * Prints each module's score, rewrites the table of docs/testing.md from the records
 * (test/mutation/scores.js), and exits 1 when any is below the goal: a mean over all modules would
 * let a weak one hide behind strong ones, so Stryker's own break threshold is not used.
 * Reports: reports/mutation/<module>.json (mutation-testing-report-schema) and .html.
 */
import { Stryker } from '@stryker-mutator/core';
import fs from 'node:fs';
import path from 'node:path';

import modules from './modules.js';
import scores from './scores.js';

const GOAL = 90;

function selectModules(args) {
	const paths = args.filter((arg) => !arg.startsWith('--'));
	const unknown = paths.filter((file) => !modules.some((module) => module.file === file));
	if (unknown.length > 0) {
		throw new Error(
			`Not a module of test/mutation/modules.js: ${unknown.join(', ')}. Known: ${modules.map((m) => m.file).join(', ')}`,
		);
	}
	if (paths.length > 0) return modules.filter((module) => paths.includes(module.file));
	return modules;
}

const full = process.argv.includes('--full');

async function mutate({ file, tests }) {
	const name = path.basename(file, '.ts');
	const started = Date.now();
	const record = `test/mutation/incremental/${name}.json`;
	const results = await new Stryker({
		mutate: [file],
		jest: {
			projectType: 'custom',
			configFile: 'jest.mutation.config.js',
			// The list below is the selection; jest's related-test search would add every suite
			// that imports the module through the nodes.
			enableFindRelatedTests: false,
			config: { testMatch: tests.map((glob) => `<rootDir>/test/${glob}.test.ts`) },
		},
		incremental: true,
		incrementalFile: record,
		force: full,
		jsonReporter: { fileName: `reports/mutation/${name}.json` },
		htmlReporter: { fileName: `reports/mutation/${name}.html` },
	}).runMutationTest();
	keepRecordStable(record);
	return { file, minutes: (Date.now() - started) / 60_000, ...scores.score(results) };
}

/**
 * Drops what changes from run to run without a change to the code or its tests (a killed
 * mutant's failure text and how many tests ran before it failed) and puts the rest in one order,
 * so a record changes only when the code, its tests or a result did.
 */
function keepRecordStable(record) {
	const report = JSON.parse(fs.readFileSync(record, 'utf8'));
	// The checkout's absolute path: a clone elsewhere (CI) would rewrite every record.
	delete report.projectRoot;
	// Whether the run was --full: the next incremental run would rewrite it.
	if (report.config) delete report.config.force;
	const byId = (a, b) => Number(a.id ?? a) - Number(b.id ?? b);
	for (const file of Object.values(report.files ?? {})) {
		// Stryker lists reused and re-tested mutants in the order they finished.
		file.mutants?.sort(byId);
		for (const mutant of file.mutants ?? []) {
			delete mutant.statusReason;
			delete mutant.testsCompleted;
			// A re-tested timeout or runtime error comes back with an empty list, a reused one without.
			for (const list of ['killedBy', 'coveredBy']) {
				if (mutant[list]?.length === 0) delete mutant[list];
				mutant[list]?.sort(byId);
			}
		}
	}
	for (const testFile of Object.values(report.testFiles ?? {})) testFile.tests?.sort(byId);
	const text = JSON.stringify(report, null, 2);
	fs.writeFileSync(record, text);
}

const selected = selectModules(process.argv.slice(2));
const rows = [];
for (const module of selected) rows.push(await mutate(module));

console.log(`\nMutation scores (goal ${GOAL} % per module):`);
for (const { file, detected, valid, percent, minutes } of rows) {
	const mark = percent < GOAL ? 'BELOW' : 'ok   ';
	console.log(
		`${mark} ${percent.toFixed(2).padStart(6)} %  ${file} (${detected} of ${valid} detected, ${minutes.toFixed(1)} min)`,
	);
}
// docs/testing.md's table says what the records now hold.
scores.writeScores();
if (rows.some((row) => row.percent < GOAL)) {
	console.error(`A module scores below ${GOAL} %: see docs/testing.md, "Mutation testing".`);
	process.exitCode = 1;
}
