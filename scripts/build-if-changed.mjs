// `npm start` and `npm run bench`: build the contract, the console and the API only when one of their sources changed
// since the last build. The digest of every source file is kept in the API's dist folder after each build; the same
// digest, and every output in place, means the build would produce what is already there, so it is skipped.
// `npm run build` always builds.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What the build reads: the workspaces (less what below skips) and the root files that pin their tools. */
const SOURCES = ['package.json', 'package-lock.json', 'tsconfig.base.json', 'packages/contract', 'apps/console', 'apps/api'];
/** Folders and files no build reads: outputs, dependencies, tests, and the migrations the API reads where they are. */
const NOT_BUILT = /(?:^|\/)(?:node_modules|dist|test|migrations)(?:\/|$)|\.test\.tsx?$|\.tsbuildinfo$/;
/** A build that was stopped half-way, or an output deleted by hand, leaves one of these missing. */
const OUTPUTS = ['packages/contract/dist/index.js', 'apps/console/dist/index.html', 'apps/api/dist/main.js'];
const STAMP = 'apps/api/dist/.source-digest';

function sourceFiles(root) {
  return SOURCES.flatMap((source) => {
    const path = join(root, source);
    if (!existsSync(path)) return [];
    if (!statSync(path).isDirectory()) return [source];
    return readdirSync(path, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
  })
    .filter((file) => !NOT_BUILT.test(file))
    .sort();
}

/** One SHA-256 over every source file's path and content: a change to any of them, or a file added or removed, changes it. */
export function sourceDigest(root) {
  const hash = createHash('sha256');
  for (const file of sourceFiles(root))
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update('\0');
  return hash.digest('hex');
}

export function isUpToDate(root) {
  const stamp = join(root, STAMP);
  if (!existsSync(stamp) || !OUTPUTS.every((output) => existsSync(join(root, output)))) return false;
  return readFileSync(stamp, 'utf8').trim() === sourceDigest(root);
}

export function recordBuild(root) {
  writeFileSync(join(root, STAMP), `${sourceDigest(root)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (isUpToDate(root)) {
    console.log('Build up to date (no source changed since the last one): skipped. `npm run build` builds anyway.');
  } else {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
    recordBuild(root);
  }
}
