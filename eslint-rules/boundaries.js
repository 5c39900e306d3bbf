/**
 * The architecture's allowed arrows, checked on every relative import (docs/architecture.md, "Boundaries"):
 *
 * API (apps/api/src)
 * - a module (modules/<m>/) uses another module only through that module's index.ts;
 * - adapters/ never import modules;
 * - outside the wiring, an adapter (adapters/<a>/) is used only through its index.ts, its port: its drivers,
 *   templates and queues are its own business (another adapter's files included);
 * - shared layers (http/, lib/, db/, jobs/, clock, errors, config, logger) import no module, except types
 *   through an index (the auth guard reads the access claims' type);
 * - the wiring (app.ts, services.ts, main.ts, demo/, scripts/) reaches modules only through their index;
 * - one exception: the schema barrel, db/schema.ts, gathers every module's and adapter's `*.schema.ts` (their tables)
 *   for the Drizzle client and drizzle-kit.
 *
 * Console (apps/console/src)
 * - a feature (features/<f>/) never imports another feature, nor app/: only app/ composes features;
 * - components/ and lib/ import neither features nor app/.
 *
 * Paths are resolved, so `../auth/index.js`, `../auth` and `../../modules/auth/index.js` are judged alike.
 */
import path from 'node:path';

const API = '/apps/api/src/';
const CONSOLE = '/apps/console/src/';
const WIRING_FILES = new Set(['app', 'services', 'main']);
const WIRING_DIRS = new Set(['demo', 'scripts']);

/** Where a file sits in the architecture, from its absolute path without extension. */
function placeOf(file) {
  const normal = file.split(path.sep).join('/');
  for (const [app, root] of [
    ['api', API],
    ['console', CONSOLE],
  ]) {
    const at = normal.lastIndexOf(root);
    if (at === -1) continue;
    const parts = normal.slice(at + root.length).split('/');
    const [top, name, ...rest] = parts;
    if (app === 'api') {
      if (top === 'modules' && name) return { app, layer: 'module', name, rest: rest.join('/') };
      if (top === 'adapters') return { app, layer: 'adapter', name, rest: rest.join('/') };
      if (parts.length === 1 && WIRING_FILES.has(top)) return { app, layer: 'wiring' };
      if (WIRING_DIRS.has(top)) return { app, layer: 'wiring' };
      return { app, layer: 'shared', name: top, rest: [name, ...rest].filter(Boolean).join('/') };
    }
    if (top === 'features' && name) return { app, layer: 'feature', name };
    // The entry (main.tsx) composes like app/ does.
    if (top === 'app' || parts.length === 1) return { app, layer: 'app' };
    return { app, layer: 'shared', name: top };
  }
  return null;
}

const withoutExtension = (file) => file.replace(/\.(?:[cm]?[jt]sx?)$/, '');
const isIndex = (place) => place.rest === '' || place.rest === 'index';
const isSchemaBarrel = (place) => place.layer === 'shared' && place.name === 'db' && place.rest === 'schema';

function isTypeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type');
}

/** Why importing `to` from `from` crosses a boundary, or null when the arrow is allowed. */
export function crossing(from, to, typeOnly) {
  if (!from || !to || from.app !== to.app) return null;
  if (from.app === 'api') {
    if (isSchemaBarrel(from) && (to.layer === 'module' || to.layer === 'adapter') && to.rest.endsWith('.schema')) return null;
    if (to.layer === 'adapter') {
      if (from.layer === 'wiring' || (from.layer === 'adapter' && from.name === to.name) || isIndex(to)) return null;
      return `Use adapter '${to.name}' only through its port, adapters/${to.name}/index.ts (not ${to.rest}).`;
    }
    if (to.layer !== 'module') return null;
    if (from.layer === 'module' && from.name === to.name) return null;
    if (from.layer === 'adapter')
      return `Adapters never import modules (here modules/${to.name}): pass what they need in from services.ts.`;
    if (!isIndex(to)) {
      return `Use module '${to.name}' only through its public face, modules/${to.name}/index.ts (not ${to.rest}).`;
    }
    if (from.layer === 'shared' && !typeOnly) {
      return `${from.name}/ is shared by every module and may import only types from a module's index (here modules/${to.name}).`;
    }
    return null;
  }
  if (from.layer === 'feature') {
    if (to.layer === 'feature' && to.name !== from.name) {
      return `Features never import other features (here features/${to.name}): compose them in app/, or move the shared piece to components/ or lib/.`;
    }
    if (to.layer === 'app') return 'Features never import app/: app/ composes the features, not the other way round.';
    return null;
  }
  if (from.layer === 'shared' && (to.layer === 'feature' || to.layer === 'app')) {
    return `${from.name}/ is shared and imports neither features nor app/.`;
  }
  return null;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow the allowed arrows between modules, adapters, features and shared code.' },
    schema: [{ type: 'object', properties: { allowAppInTests: { type: 'boolean' } }, additionalProperties: false }],
    messages: { crossing: '{{reason}}' },
  },
  create(context) {
    const filename = context.filename ?? context.getFilename();
    const from = placeOf(withoutExtension(filename));
    if (!from) return {};
    const isTest = /\.test\.[jt]sx?$/.test(filename);

    function check(node, source, typeOnly) {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const to = placeOf(withoutExtension(path.resolve(path.dirname(filename), source.value)));
      // Tests may render app/ around a feature (a page inside the shell) to test it as users meet it.
      if (isTest && from.layer === 'feature' && to?.layer === 'app') return;
      const reason = crossing(from, to, typeOnly);
      if (reason) context.report({ node: source, messageId: 'crossing', data: { reason } });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source, isTypeOnly(node)),
      ExportNamedDeclaration: (node) => check(node, node.source, isTypeOnly(node)),
      ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ImportExpression: (node) => check(node, node.source, false),
    };
  },
};

export default { meta: { name: 'kumo-boundaries' }, rules: { boundaries: rule } };
