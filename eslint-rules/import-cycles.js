/**
 * No import circles (docs/architecture.md, "Boundaries"), at two levels:
 *
 * - files: no chain of imports leads from a file back to itself;
 * - modules: no chain leads from an API module (modules/<m>/), an adapter (adapters/<a>/) or a console feature
 *   (features/<f>/) back into itself through other ones, counting every file of each as one node, so
 *   clusters → metering → clusters is a circle even when it passes through different files on each side.
 *
 * Only runtime imports count: `import type`, `export type`, and imports whose every name is marked `type` are
 * erased by the compiler (isolatedModules, no verbatimModuleSyntax) and never load the other file. Dynamic
 * `import()` counts: it still loads the other file, only later. Only relative specifiers are followed (packages
 * such as @kumo/contract import nothing of the apps).
 *
 * The file being linted is read from its AST (so an editor's unsaved text is judged); every other file is parsed
 * from disk once per content (cached by path, mtime and size), so a lint run builds the graph once.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.jsx', '.mjs'];
const TEST_FILE = /\.(?:test|spec)\.[cm]?[jt]sx?$/;

/** The group a file belongs to for the module-level check, or null for shared files (each its own node). */
export function groupOf(file) {
  const normal = file.split(path.sep).join('/');
  const match =
    /^(.*\/apps\/api\/src\/(?:modules|adapters)\/[^/]+)\/./.exec(normal) ?? /^(.*\/apps\/console\/src\/features\/[^/]+)\/./.exec(normal);
  return match ? match[1] : null;
}

const shortName = (file) => {
  const normal = file.split(path.sep).join('/');
  const at = normal.search(/\/(?:apps|packages)\/[^/]+\/src\//);
  return at === -1 ? normal : normal.slice(at + 1).replace(/^(?:apps|packages)\/[^/]+\/src\//, '');
};

function isFile(candidate) {
  try {
    return fs.statSync(candidate).isFile();
  } catch {
    return false;
  }
}

/** The source file a relative specifier names: `./x.js` may be `./x.ts`, `./x` may be `./x.tsx` or `./x/index.ts`. */
export function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const target = path.resolve(path.dirname(fromFile), specifier);
  const stem = target.replace(/\.[cm]?jsx?$/, '');
  const candidates = [
    ...(stem !== target ? SOURCE_EXTENSIONS.map((ext) => stem + ext) : []),
    target,
    ...SOURCE_EXTENSIONS.map((ext) => target + ext),
    ...SOURCE_EXTENSIONS.map((ext) => path.join(target, `index${ext}`)),
  ];
  return candidates.find(isFile) ?? null;
}

/** The runtime imports of a source text, parsed with TypeScript: [{ specifier }]. */
function runtimeSpecifiers(file, text) {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const found = [];
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : null;
      const typeOnly = clause && (clause.isTypeOnly || (!clause.name && named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : null;
      const typeOnly = node.isTypeOnly || (named && named.length > 0 && named.every((e) => e.isTypeOnly));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Parsed files of this process: path → { mtimeMs, size, imports }. */
const parsed = new Map();

function importsOnDisk(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return [];
  }
  const cached = parsed.get(file);
  if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.imports;
  const specifiers = runtimeSpecifiers(file, fs.readFileSync(file, 'utf8'));
  const imports = [...new Set(specifiers.map((s) => resolveImport(file, s)).filter(Boolean))];
  parsed.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, imports });
  return imports;
}

/** The non-test source files of a group's folder. */
function filesOfGroup(dir) {
  const files = [];
  const walk = (at) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (SOURCE_EXTENSIONS.includes(path.extname(entry.name)) && !TEST_FILE.test(entry.name) && !entry.name.endsWith('.d.ts'))
        files.push(full);
    }
  };
  try {
    walk(dir);
  } catch {
    return [];
  }
  return files;
}

/** A shortest import chain from `start` to a node for which `isGoal` holds, or null. `next` lists a node's neighbours. */
function chain(start, isGoal, next) {
  const parent = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    if (isGoal(node)) {
      const steps = [];
      for (let at = node; at !== null; at = parent.get(at)) steps.unshift(at);
      return steps;
    }
    for (const neighbour of next(node)) {
      if (!parent.has(neighbour)) {
        parent.set(neighbour, node);
        queue.push(neighbour);
      }
    }
  }
  return null;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'No runtime import circle between files, nor between API modules, adapters and console features.' },
    schema: [],
    messages: {
      fileCycle: 'Import circle: {{chain}}. Break it (a type-only import, or move the shared piece below both files).',
      groupCycle:
        'Import circle between {{groups}}: {{chain}}. Modules, adapters and features depend one way only; pass what the other side needs in from the wiring, or move it below both.',
    },
  },
  create(context) {
    const filename = path.resolve(context.filename ?? context.getFilename());
    if (TEST_FILE.test(filename)) return {};
    const group = groupOf(filename);
    // Within one linted file, each other file is checked on disk once.
    const importsSeen = new Map();
    const importsOf = (file) => {
      if (!importsSeen.has(file)) importsSeen.set(file, importsOnDisk(file));
      return importsSeen.get(file);
    };
    const groupFiles = new Map();
    const filesIn = (dir) => {
      if (!groupFiles.has(dir)) groupFiles.set(dir, filesOfGroup(dir));
      return groupFiles.get(dir);
    };
    // Every file of a group stands for the group: entering one reaches all its files.
    const groupNext = (file) => {
      const own = groupOf(file);
      return own ? [...importsOf(file), ...filesIn(own)] : importsOf(file);
    };
    const reported = new Set();

    function check(source, typeOnly) {
      if (typeOnly || !source || typeof source.value !== 'string') return;
      const target = resolveImport(filename, source.value);
      if (!target || target === filename) return;
      const back = chain(target, (file) => file === filename, importsOf);
      if (back) {
        const names = [filename, ...back].map(shortName).join(' → ');
        context.report({ node: source, messageId: 'fileCycle', data: { chain: names } });
        return;
      }
      const targetGroup = groupOf(target);
      if (!group || targetGroup === group) return;
      const home = chain(target, (file) => file !== target && groupOf(file) === group, groupNext);
      if (!home) return;
      const path_ = [filename, ...home];
      const groups = [...new Set(path_.map(groupOf).filter(Boolean))].map(shortName);
      const key = groups.join();
      if (reported.has(key)) return;
      reported.add(key);
      context.report({
        node: source,
        messageId: 'groupCycle',
        data: { groups: groups.join(', '), chain: path_.map(shortName).join(' → ') },
      });
    }

    const typeOnlyImport = (node) => {
      if (node.importKind === 'type' || node.exportKind === 'type') return true;
      const specifiers = node.specifiers ?? [];
      return specifiers.length > 0 && specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type');
    };

    return {
      ImportDeclaration: (node) => check(node.source, typeOnlyImport(node)),
      ExportNamedDeclaration: (node) => check(node.source, typeOnlyImport(node)),
      ExportAllDeclaration: (node) => check(node.source, node.exportKind === 'type'),
      ImportExpression: (node) => check(node.source, false),
    };
  },
};

export default { meta: { name: 'kumo-import-cycles' }, rules: { 'import-cycles': rule } };
