/**
 * Who owns which table, and where a module's source names a table it does not own: in SQL text, or by importing
 * another owner's Drizzle table object (docs/architecture.md, "Data ownership"). Read from the sources themselves
 * with the TypeScript parser, so a new table or a new file is covered without a list to keep.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import ts from 'typescript';

/** One source file, its path relative to apps/api/src (with forward slashes) and its text. */
export interface SourceFile {
  path: string;
  text: string;
}

/** The tables of every owner: the table's SQL name, the owner, and the name its schema file exports it under. */
export interface Ownership {
  tables: Map<string, { owner: string; exportName: string }>;
  /** The owner of each schema file (its path without extension). */
  schemaFiles: Map<string, string>;
}

const OWNING_ROOTS = ['modules/', 'adapters/', 'http/'];

/** `modules/<m>`, `adapters/<a>` or `http`: who a file speaks for; undefined for shared and wiring code. */
export function ownerOf(path: string): string | undefined {
  if (path.startsWith('http/')) return 'http';
  const [top, name] = path.split('/');
  return (top === 'modules' || top === 'adapters') && name && path.split('/').length > 2 ? `${top}/${name}` : undefined;
}

/** Every non-test TypeScript file of the modules, the adapters and the HTTP layer. */
export function ownedSources(srcRoot: string): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        files.push({ path: relative(srcRoot, full).split('\\').join('/'), text: readFileSync(full, 'utf8') });
      }
    }
  };
  for (const root of OWNING_ROOTS) walk(join(srcRoot, root));
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

const parse = (file: SourceFile) => ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true);

function visit(node: ts.Node, fn: (node: ts.Node) => void) {
  fn(node);
  node.forEachChild((child) => visit(child, fn));
}

const isCallTo = (node: ts.Node, name: string): node is ts.CallExpression =>
  ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === name;

/** The tables declared (`export const x = pgTable('name', …)`) in the `*.schema.ts` files among the sources. */
export function ownershipOf(sources: SourceFile[]): Ownership {
  const ownership: Ownership = { tables: new Map(), schemaFiles: new Map() };
  for (const file of sources.filter((source) => source.path.endsWith('.schema.ts'))) {
    const owner = ownerOf(file.path);
    if (!owner) continue;
    ownership.schemaFiles.set(file.path.replace(/\.ts$/, ''), owner);
    visit(parse(file), (node) => {
      if (!ts.isVariableDeclaration(node) || !ts.isIdentifier(node.name) || !node.initializer) return;
      const call = node.initializer;
      const [first] = isCallTo(call, 'pgTable') ? call.arguments : [];
      if (first && ts.isStringLiteral(first)) {
        const taken = ownership.tables.get(first.text);
        if (taken) throw new Error(`Table ${first.text} is declared by both ${taken.owner} and ${owner}.`);
        ownership.tables.set(first.text, { owner, exportName: node.name.text });
      }
    });
  }
  return ownership;
}

/** The static text of the SQL a file writes: `sql` templates, `sql.raw(…)` and strings handed to execute/query. */
function sqlTexts(source: ts.SourceFile): { text: string; line: number }[] {
  const texts: { text: string; line: number }[] = [];
  const literalText = (node: ts.Node): string | undefined => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
    return undefined;
  };
  const add = (node: ts.Node) => {
    const text = literalText(node);
    if (text !== undefined) texts.push({ text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
  };
  visit(source, (node) => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === 'sql') add(node.template);
    if (ts.isCallExpression(node) && node.arguments[0]) {
      const callee = node.expression;
      const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : '';
      const onSql = ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'sql';
      if ((onSql && name === 'raw') || ['execute', 'query', 'executeSql'].includes(name)) add(node.arguments[0]);
    }
  });
  return texts;
}

/** Where the file names a table it does not own; empty when it keeps to its own tables and others' published views. */
export function violationsOf(file: SourceFile, ownership: Ownership): string[] {
  const owner = ownerOf(file.path);
  if (!owner) return [];
  const source = parse(file);
  const found: string[] = [];
  const foreign = (table: string) => {
    const entry = ownership.tables.get(table.toLowerCase());
    return entry && entry.owner !== owner ? entry : undefined;
  };

  for (const { text, line } of sqlTexts(source)) {
    for (const word of new Set(text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [])) {
      const entry = foreign(word);
      if (entry) found.push(`${file.path}:${line}: SQL names ${word.toLowerCase()}, a table of ${entry.owner}`);
    }
  }

  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const specifier = statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
    const target = posix.normalize(posix.join(posix.dirname(file.path), specifier.text)).replace(/\.[jt]s$/, '');
    const line = source.getLineAndCharacterOfPosition(statement.getStart()).line + 1;
    const { names, typeOnly } = importedNames(statement);
    if (typeOnly) continue;
    const where = `${file.path}:${line}`;
    const targetOwner = ownership.schemaFiles.get(target) ?? ownerOf(target);
    if (target === 'db/schema') {
      found.push(`${where}: imports the schema barrel; a module imports its own tables from its own schema file`);
    } else if (ownership.schemaFiles.has(target) && targetOwner !== owner) {
      found.push(`${where}: imports ${target}, the tables of ${targetOwner}`);
    } else if (targetOwner && targetOwner !== owner) {
      for (const name of names) {
        const table = [...ownership.tables.entries()].find(([, entry]) => entry.owner === targetOwner && entry.exportName === name);
        if (table) found.push(`${where}: imports ${name}, the table ${table[0]} of ${targetOwner}`);
      }
    }
  }
  return found;
}

/** The names a statement brings in (`*` for a namespace or a whole re-export), and whether it brings in types only. */
function importedNames(statement: ts.ImportDeclaration | ts.ExportDeclaration): { names: string[]; typeOnly: boolean } {
  if (ts.isExportDeclaration(statement)) {
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause)) return { names: ['*'], typeOnly: statement.isTypeOnly };
    const values = clause.elements.filter((element) => !element.isTypeOnly);
    return { names: values.map((e) => (e.propertyName ?? e.name).text), typeOnly: statement.isTypeOnly || values.length === 0 };
  }
  const clause = statement.importClause;
  if (!clause) return { names: [], typeOnly: false };
  if (clause.isTypeOnly) return { names: [], typeOnly: true };
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) return { names: ['*'], typeOnly: false };
  const values = bindings ? bindings.elements.filter((element) => !element.isTypeOnly) : [];
  const names = [...(clause.name ? ['default'] : []), ...values.map((e) => (e.propertyName ?? e.name).text)];
  return { names, typeOnly: names.length === 0 && !!bindings && bindings.elements.length > 0 };
}
