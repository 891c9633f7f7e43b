const path = require('path');
const { task, src, dest } = require('gulp');

// tsc emits only JavaScript; n8n loads node and credential icons from next to the compiled files.
task('build:icons', () =>
	src(['icons/**/*.{png,svg}', 'nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], { base: '.', encoding: false }).pipe(
		dest(path.resolve('dist')),
	),
);
