/**
 * An answer schema compiled once into a plain function that checks a value as zod's parse does and gives the same
 * value zod gives (only the fields the schema names; decision 0048). zod's parse pays for its generality on every
 * element of a list: a payload and an issue list per value, a context per call. The compiled check runs each schema's
 * own checks (zod's check functions, not copies of them) on the values and builds the answer in one walk.
 *
 * It covers the kinds answers are made of; a schema with any other part compiles to undefined and stays with zod.
 * A value it refuses is parsed by zod again, so a refusal carries zod's own error.
 */
import type { $ZodType } from 'zod/v4/core';

/** What a compiled node gives for a value it refuses. */
const REFUSED = Symbol('refused');
type Node = (value: unknown) => unknown;

interface Check {
  _zod: { def: { when?: (payload: Payload) => boolean }; check: (payload: Payload) => unknown };
}
interface Payload {
  value: unknown;
  issues: unknown[];
}
interface Def {
  type: string;
  checks?: Check[];
  coerce?: boolean;
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
  element?: $ZodType;
  innerType?: $ZodType;
  options?: $ZodType[];
}

/** Kinds with nothing but a test of the value itself. */
const LEAF_TESTS: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  boolean: (value) => typeof value === 'boolean',
  null: (value) => value === null,
  any: () => true,
  unknown: () => true,
};

/** The schema's checks as zod runs them: the schema itself first when it is one (z.uuid(), z.iso.datetime()). */
function checksOf(schema: $ZodType): Check[] {
  const own = (schema._zod.def as unknown as Def).checks ?? [];
  const traits = (schema._zod as unknown as { traits: Set<string> }).traits;
  return traits.has('$ZodCheck') ? [schema as unknown as Check, ...own] : own;
}

/** True when every check passes the value; undefined when a check is asynchronous (not compiled). */
function passes(checks: Check[], value: unknown): boolean {
  const payload: Payload = { value, issues: [] };
  for (const check of checks) {
    const when = check._zod.def.when;
    if (when && !when(payload)) continue;
    if (check._zod.check(payload) instanceof Promise) throw new Error('an asynchronous check in an answer schema');
    if (payload.issues.length > 0) return false;
  }
  return true;
}

function leaf(schema: $ZodType, test: (value: unknown) => boolean): Node {
  const checks = checksOf(schema);
  if (checks.length === 0) return (value) => (test(value) ? value : REFUSED);
  return (value) => (test(value) && passes(checks, value) ? value : REFUSED);
}

/**
 * What the check builds is sent as JSON, so a value with the same JSON is given back as it is rather than copied (the
 * copies were most of the check's cost on a long list). Anything that could make its JSON differ from the copy's (a
 * toJSON of its own or from its prototype) is copied as before.
 */
const sameJsonAsCopy = (value: object) => !('toJSON' in value);

/** Whether the object's own keys are the schema's, in its order: a copy would have the same keys in the same order. */
function hasExactly(input: object, keys: string[]): boolean {
  if (!sameJsonAsCopy(input)) return false;
  const own = Object.keys(input);
  if (own.length !== keys.length) return false;
  for (let i = 0; i < keys.length; i++) if (own[i] !== keys[i]) return false;
  return true;
}

function objectNode(shape: Record<string, $ZodType>): Node | undefined {
  const keys = Object.keys(shape);
  const nodes: Node[] = [];
  const optional: boolean[] = [];
  for (const key of keys) {
    const node = compileNode(shape[key]!);
    if (!node) return undefined;
    nodes.push(node);
    optional.push((shape[key]!._zod.def as unknown as Def).type === 'optional');
  }
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return REFUSED;
    const input = value as Record<string, unknown>;
    if (hasExactly(input, keys)) {
      // Checked in place: each field must pass and come back unchanged, or the object is copied below after all.
      let unchanged = true;
      for (let i = 0; i < keys.length; i++) {
        const field = input[keys[i]!];
        if (field === undefined) {
          unchanged = false;
          break;
        }
        const checked = nodes[i]!(field);
        if (checked === REFUSED) return REFUSED;
        if (checked !== field) {
          unchanged = false;
          break;
        }
      }
      if (unchanged) return input;
    }
    const output: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const field = input[key];
      // An absent optional field stays absent; an undefined one is left out of the JSON either way.
      if (field === undefined && optional[i]) continue;
      const checked = nodes[i]!(field);
      if (checked === REFUSED) return REFUSED;
      if (checked !== undefined) output[key] = checked;
    }
    return output;
  };
}

function compileNode(schema: $ZodType): Node | undefined {
  const def = schema._zod.def as unknown as Def;
  const test = LEAF_TESTS[def.type];
  if (test) return def.coerce ? undefined : leaf(schema, test);
  const values = (schema._zod as unknown as { values?: Set<unknown> }).values;
  if ((def.type === 'enum' || def.type === 'literal') && values) return leaf(schema, (value) => values.has(value));
  // Below, a kind whose own checks (a refinement of an object or a list, a length) are not compiled stays with zod.
  if (checksOf(schema).length > 0) return undefined;
  switch (def.type) {
    case 'object': {
      // Only the default, which drops the fields the schema does not name.
      if (def.catchall) return undefined;
      return objectNode(def.shape ?? {});
    }
    case 'array': {
      const element = def.element && compileNode(def.element);
      if (!element) return undefined;
      return (value) => {
        if (!Array.isArray(value)) return REFUSED;
        const list = value as unknown[];
        // The list itself is given back when every element came back as it was (a hole is sent as null either way).
        let output: unknown[] | undefined = sameJsonAsCopy(list) ? undefined : [];
        for (let i = 0; i < list.length; i++) {
          const item = list[i];
          const checked = element(item);
          if (checked === REFUSED) return REFUSED;
          if (output) output[i] = checked;
          else if (checked !== item) {
            output = list.slice(0, i);
            output[i] = checked;
          }
        }
        return output ?? list;
      };
    }
    case 'nullable':
    case 'optional': {
      const inner = def.innerType && compileNode(def.innerType);
      if (!inner) return undefined;
      const empty = def.type === 'nullable' ? null : undefined;
      return (value) => (value === empty ? value : inner(value));
    }
    case 'union': {
      // zod answers with the first option the value passes.
      const options = (def.options ?? []).map(compileNode);
      if (options.length === 0 || options.some((option) => !option)) return undefined;
      return (value) => {
        for (const option of options as Node[]) {
          const checked = option(value);
          if (checked !== REFUSED) return checked;
        }
        return REFUSED;
      };
    }
    default:
      return undefined;
  }
}

/**
 * The schema's check compiled, or undefined for a schema it does not cover. The function answers
 * `{ ok: true, value }` with what zod's parse would give, or `{ ok: false }` where zod's parse fails.
 */
export function compileCheck(schema: $ZodType): ((value: unknown) => { ok: true; value: unknown } | { ok: false }) | undefined {
  const node = compileNode(schema);
  if (!node) return undefined;
  return (value) => {
    const checked = node(value);
    return checked === REFUSED ? { ok: false } : { ok: true, value: checked };
  };
}
