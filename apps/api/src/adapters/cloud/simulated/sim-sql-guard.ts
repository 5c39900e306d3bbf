/**
 * The simulated engine's statement check: statements that would reach outside the cluster are refused before DuckDB
 * sees them. DuckDB's own settings (enable_external_access=false, lock_configuration=true, no extension autoloading)
 * refuse the same things again: two fences, so a gap in one (a new table function, a new syntax) is not a way out.
 */

/** Statements refused by their first word: other databases, extensions, settings and files. */
const REFUSED_STATEMENTS = new Set([
  'ATTACH',
  'DETACH',
  'INSTALL',
  'LOAD',
  'FORCE',
  'SET',
  'RESET',
  'PRAGMA',
  'COPY',
  'EXPORT',
  'IMPORT',
  'USE',
  'CALL',
]);

/** Table and scalar functions that read files, other databases or the environment. */
const REFUSED_FUNCTIONS =
  /\b(read_\w+|glob|parquet_\w+|sniff_csv|csv_scan|json_scan|iceberg_\w+|delta_scan|sqlite_\w+|postgres_\w+|mysql_\w+|getenv|ducklake_\w+|query_table|query)\s*\(/i;

/** Secrets hold credentials for outside stores: making or dropping one is refused. */
const REFUSED_PHRASES = /\b(create|drop)\s+(or\s+replace\s+)?(persistent\s+|temporary\s+)?secret\b/i;

/**
 * The text with its comments gone and every string literal replaced by a marker ('…' becomes the word STR), so a
 * keyword inside a literal does not count and a literal where a table belongs (FROM '/etc/passwd') can be seen.
 */
function withoutLiterals(query: string): string {
  let out = '';
  for (let i = 0; i < query.length;) {
    const two = query.slice(i, i + 2);
    if (two === '--') {
      const end = query.indexOf('\n', i);
      i = end < 0 ? query.length : end;
      out += ' ';
    } else if (two === '/*') {
      const end = query.indexOf('*/', i + 2);
      i = end < 0 ? query.length : end + 2;
      out += ' ';
    } else if (query[i] === "'" || (query[i] === '$' && query[i + 1] === '$')) {
      const close = query[i] === "'" ? "'" : '$$';
      let j = i + close.length;
      for (;;) {
        const end = query.indexOf(close, j);
        if (end < 0) {
          j = query.length;
          break;
        }
        // '' inside a literal is a quote, not its end.
        if (close === "'" && query[end + 1] === "'") {
          j = end + 2;
          continue;
        }
        j = end + close.length;
        break;
      }
      out += ' STR ';
      i = j;
    } else {
      out += query[i];
      i += 1;
    }
  }
  return out;
}

/** Whether the query may run; false when any of its statements reaches outside the cluster. */
export function statementAllowed(query: string): boolean {
  const text = withoutLiterals(query);
  for (const statement of text.split(';')) {
    const first = /^\s*\(*\s*([A-Za-z_]+)/.exec(statement)?.[1]?.toUpperCase();
    if (first && REFUSED_STATEMENTS.has(first)) return false;
  }
  if (REFUSED_FUNCTIONS.test(text) || REFUSED_PHRASES.test(text)) return false;
  // A file named where a table belongs: FROM 'data.csv', JOIN 'x.parquet'.
  if (/\b(from|join)\s+\(*\s*STR\b/i.test(text)) return false;
  return true;
}
