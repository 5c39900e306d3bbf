/**
 * Every answer is checked against its route's response schema on the way out, and only the schema's fields are sent.
 * The type provider's serializer encodes with zod (`safeEncode`), which runs each checked field twice (a first pass
 * without its checks, then with them): for a schema with nothing to encode, that is a plain parse at three times its
 * cost, paid on every element of a list. So a schema with nothing to encode is parsed instead (the same answer, or the
 * same refusal), and any other goes to the type provider's serializer as before. Such a schema is checked by a
 * function compiled from it once, which gives what zod's parse gives (compiled-check.ts), or by the parse itself when
 * it is made of parts the compiled check does not cover.
 */
import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError, serializerCompiler } from 'fastify-type-provider-zod';
import { $ZodType, safeParse } from 'zod/v4/core';
import { compileCheck } from './compiled-check.js';

type RouteSchema = Parameters<typeof serializerCompiler>[0]['schema'];

/** Schema kinds that hold no transform, codec, default, fallback or pipe: parsed and encoded, they give the same value. */
const PLAIN_LEAVES = new Set([
  'string',
  'number',
  'boolean',
  'bigint',
  'null',
  'undefined',
  'any',
  'unknown',
  'enum',
  'literal',
  'date',
  'nan',
  'template_literal',
]);

interface Def {
  type: string;
  checks?: { _zod: { def: { check: string } } }[];
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
  element?: $ZodType;
  innerType?: $ZodType;
  options?: $ZodType[];
  keyType?: $ZodType;
  valueType?: $ZodType;
  items?: $ZodType[];
  rest?: $ZodType | null;
  left?: $ZodType;
  right?: $ZodType;
  getter?: () => $ZodType;
}

/** Whether parsing the schema gives what encoding it gives: no part of it changes a value on the way. */
export function hasNothingToEncode(schema: $ZodType, seen = new Set<$ZodType>()): boolean {
  if (seen.has(schema)) return true;
  seen.add(schema);
  const def = schema._zod.def as unknown as Def;
  // A check that rewrites the value (trim, case changes, normalize) runs in one direction only.
  if (def.checks?.some((check) => check._zod.def.check === 'overwrite')) return false;
  const all = (parts: ($ZodType | null | undefined)[]) => parts.every((part) => !part || hasNothingToEncode(part, seen));
  switch (def.type) {
    case 'object':
      return all([...Object.values(def.shape ?? {}), def.catchall]);
    case 'array':
      return all([def.element]);
    case 'optional':
    case 'nullable':
    case 'readonly':
      return all([def.innerType]);
    case 'union':
      return all(def.options ?? []);
    case 'intersection':
      return all([def.left, def.right]);
    case 'record':
      return all([def.keyType, def.valueType]);
    case 'tuple':
      return all([...(def.items ?? []), def.rest]);
    case 'lazy':
      return all([def.getter?.()]);
    default:
      return PLAIN_LEAVES.has(def.type);
  }
}

/** The route's zod schema, as the type provider finds it. */
function zodSchemaOf(schema: RouteSchema): $ZodType | undefined {
  if (schema instanceof $ZodType) return schema;
  const properties = (schema as { properties?: unknown }).properties;
  return properties instanceof $ZodType ? properties : undefined;
}

export const responseSerializerCompiler: FastifySerializerCompiler<RouteSchema> = (route) => {
  const schema = zodSchemaOf(route.schema);
  if (!schema || !hasNothingToEncode(schema)) return serializerCompiler(route);
  const { method, url } = route;
  const parsed = (data: unknown) => {
    const result = safeParse(schema, data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
  // The check compiled once when the schema is made of the kinds it covers (compiled-check.ts, decision 0048). What it
  // refuses goes through zod's parse, whose error the refusal carries.
  const check = compileCheck(schema);
  if (!check) return parsed;
  return (data) => {
    const result = check(data);
    return result.ok ? JSON.stringify(result.value) : parsed(data);
  };
};
