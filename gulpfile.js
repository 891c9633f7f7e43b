// Build step after tsc (`npm run build`): copies the icons and codex (.node.json) files into dist/.
const path = require('path');
const { task, src, dest } = require('gulp');

// tsc emits only JavaScript; n8n loads icons and codex files from next to the compiled ones.
task('build:icons', () =>
	src(['icons/**/*.{png,svg}', 'nodes/**/*.{png,svg,json}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest(path.resolve('dist'))),
);
