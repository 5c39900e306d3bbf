import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The console imports Mantine's styles per component (mantine-styles.ts): a component used without its
// stylesheet would render unstyled, so every component with a stylesheet must be listed.
const src = join(import.meta.dirname, '..');
const stylesDir = dirname(createRequire(join(src, 'main.tsx')).resolve('@mantine/core/styles/Button.layer.css'));
const listed = readFileSync(join(import.meta.dirname, 'mantine-styles.ts'), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

function mantineComponentsUsed(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(src)) {
    for (const [, list] of readFileSync(file, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'@mantine\/core'/g)) {
      for (const part of list!.split(',')) {
        const name = part.trim();
        if (name && !name.startsWith('type ')) names.add(name);
      }
    }
  }
  return names;
}

describe('Mantine styles', () => {
  it('lists the stylesheet of every Mantine component the console uses', () => {
    const withStyles = [...mantineComponentsUsed()].filter((name) => existsSync(join(stylesDir, `${name}.layer.css`)));
    expect(withStyles).toContain('Button');
    const missing = withStyles.filter((name) => !listed.includes(`@mantine/core/styles/${name}.layer.css`));
    expect(missing, 'add these to src/app/mantine-styles.ts').toEqual([]);
  });
});
