import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PERMISSION_KEYS, permissionsFor, type PermissionState } from './permissions.js';
import { SYSTEM_ROLES } from './roles.js';

const STATE_LETTERS: Record<PermissionState, string> = { ENABLED: 'E', DISABLED: 'D', HIDDEN: 'H' };

/** docs/permissions.md's staff table: one row per key, `| \`key\` | element | state per role |`. */
function documentedRows() {
  const text = readFileSync(new URL('../../../docs/permissions.md', import.meta.url), 'utf8');
  const header = text.split('\n').find((line) => /^\|\s*feature key\s*\|/.test(line));
  const roles = (header?.split('|').slice(3, -1) ?? []).map((cell) => cell.trim() as (typeof SYSTEM_ROLES)[number]);
  const rows = text
    .split('\n')
    .filter((line) => /^\|\s*`[a-z_]+`\s*\|/.test(line))
    .map((line) => {
      const [key, element, ...states] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      return { key: key!.replaceAll('`', ''), element: element!, states };
    });
  return { roles, rows };
}

describe('docs/permissions.md', () => {
  const { roles, rows } = documentedRows();

  it('has a column for every staff role', () => {
    expect([...roles].sort()).toEqual([...SYSTEM_ROLES].sort());
  });

  it('lists every key of the permission map once, and no other', () => {
    expect(rows.map((row) => row.key).sort()).toEqual([...PERMISSION_KEYS].sort());
  });

  it('names the element each key governs and gives the state the map gives each role', () => {
    expect(rows).toHaveLength(PERMISSION_KEYS.length);
    for (const row of rows) {
      expect(row.element, row.key).not.toBe('');
      expect(row.states, row.key).toEqual(roles.map((role) => STATE_LETTERS[permissionsFor(role)[row.key]!]));
    }
  });
});
