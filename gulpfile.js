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

// The README as packed (`npm pack`, `npm publish`): its relative links and images point at the
// released version's files on GitHub, since npm's page would send them to the default branch and
// a copy of the tarball would show them broken. The repository's README stays as it is: prepack
// rewrites it and keeps the original beside it, under a name npm does not pack, postpack puts
// the original back.
const fs = require('fs');
const README = 'README.md';
const ORIGINAL = '.readme-original.md'; // outside the tarball: npm ships every README* file

/** `text` with every relative Markdown link and image made absolute for `version`'s tag. */
function releasedReadme(text, repositoryUrl, version) {
	const repo = repositoryUrl.replace(/^git\+/, '').replace(/\.git$/, '');
	const raw = repo.replace('https://github.com/', 'https://raw.githubusercontent.com/');
	return text.replace(/(!?)\[([^\]]*)\]\(([^)\s]+)\)/g, (link, bang, label, target) => {
		if (/^([a-z]+:|#)/i.test(target)) return link;
		const file = path.posix.normalize(target);
		const url = bang ? `${raw}/v${version}/${file}` : `${repo}/blob/v${version}/${file}`;
		return `${bang}[${label}](${url})`;
	});
}

task('readme:released', async () => {
	if (fs.existsSync(ORIGINAL))
		throw new Error(`${ORIGINAL} exists: run "gulp readme:restore" first`);
	const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
	const text = fs.readFileSync(README, 'utf8');
	fs.writeFileSync(ORIGINAL, text);
	fs.writeFileSync(README, releasedReadme(text, pkg.repository.url, pkg.version));
});

task('readme:restore', async () => {
	if (!fs.existsSync(ORIGINAL)) return;
	fs.renameSync(ORIGINAL, README);
});

module.exports = { releasedReadme };
