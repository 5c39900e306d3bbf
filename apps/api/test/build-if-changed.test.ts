import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

interface BuildStamp {
  sourceDigest(root: string): string;
  isUpToDate(root: string): boolean;
  recordBuild(root: string): void;
}
// A plain script run by `npm start`; imported through a computed path, as it has no type declarations.
const script = new URL('../../../scripts/build-if-changed.mjs', import.meta.url).href;
const { isUpToDate, recordBuild, sourceDigest } = (await import(script)) as BuildStamp;

/** A checkout in miniature: a source of each workspace, a test, a migration, and the three outputs `npm start` needs. */
const FILES = {
  'package.json': '{}',
  'package-lock.json': '{}',
  'tsconfig.base.json': '{}',
  'packages/contract/src/index.ts': 'export const A = 1;',
  'apps/console/src/main.tsx': 'render();',
  'apps/console/index.html': '<div id="root"></div>',
  'apps/api/src/main.ts': 'listen();',
  'apps/api/src/app.spa.test.ts': 'it();',
  'apps/api/test/support/harness.ts': 'export {};',
  'apps/api/migrations/0001_init.sql': 'create table a ();',
  'packages/contract/dist/index.js': '',
  'apps/console/dist/index.html': '',
  'apps/api/dist/main.js': '',
};

describe('npm start builds only what changed', () => {
  let root: string;
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'kumo-build-stamp-'));
    for (const [file, text] of Object.entries(FILES)) write(file, text);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds a checkout never built, then skips until a source changes', () => {
    expect(isUpToDate(root)).toBe(false);
    recordBuild(root);
    expect(isUpToDate(root)).toBe(true);
    write('apps/console/src/main.tsx', 'render(<App />);');
    expect(isUpToDate(root)).toBe(false);
    recordBuild(root);
    write('apps/api/src/new-module.ts', 'export {};');
    expect(isUpToDate(root), 'a file added').toBe(false);
    recordBuild(root);
    write('package-lock.json', '{"lockfileVersion":3}');
    expect(isUpToDate(root), 'dependencies changed').toBe(false);
  });

  it('ignores tests, migrations and outputs, which no build reads', () => {
    recordBuild(root);
    const before = sourceDigest(root);
    write('apps/api/src/app.spa.test.ts', 'it.skip();');
    write('apps/api/test/support/harness.ts', 'export const x = 1;');
    write('apps/api/migrations/0002_more.sql', 'create table b ();');
    write('apps/api/dist/main.js', 'changed');
    expect(sourceDigest(root)).toBe(before);
    expect(isUpToDate(root)).toBe(true);
  });

  it('builds again when an output is missing', () => {
    recordBuild(root);
    rmSync(join(root, 'apps/console/dist/index.html'));
    expect(isUpToDate(root)).toBe(false);
  });
});
