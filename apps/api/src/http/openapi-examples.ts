/**
 * An example for every JSON request body and every 2xx JSON answer of the OpenAPI document, made from its schema: a
 * field of a known name takes a realistic value (openapi-example-values.ts) when its schema accepts it, any other
 * field the first value its type, format, pattern, enum and bounds allow. The document's test validates every example
 * against its schema with a strict validator, so an example cannot teach a client something the API refuses or never
 * sends.
 */
import { NAMED_VALUES, PATTERN_SAMPLES } from './openapi-example-values.js';
import { node, type Json } from './openapi-parts.js';

/** Deeper than any schema of the document nests; a cycle stops here. */
const MAX_DEPTH = 12;
const FORMATS: Record<string, string> = {
  uuid: '6f1c2d44-1b7a-4c2e-9f3a-0d6c1e2b3a4f',
  'date-time': '2026-11-29T08:00:00.000Z',
  date: '2026-11-29',
  uri: 'https://portal.example.com/',
  email: 'ada@example.com',
};

/** Writes `example` on each JSON body and 2xx JSON answer that has none. */
export function addExamples(document: Json): void {
  const schemas = node(node(document.components).schemas);
  for (const item of Object.values(node(document.paths))) {
    for (const operation of Object.values(node(item))) {
      const media = [
        node(node(node(operation).requestBody).content)['application/json'],
        ...Object.entries(node(node(operation).responses))
          .filter(([status]) => status.startsWith('2'))
          .map(([, response]) => node(node(response).content)['application/json']),
      ];
      for (const json of media) {
        if (!json || typeof json !== 'object') continue;
        const target = json as Json;
        if (target.example !== undefined || target.examples !== undefined) continue;
        const example = exampleOf(target.schema, schemas, undefined, 0);
        if (example !== undefined) target.example = example;
      }
    }
  }
}

/** An example of `schema`; `name` is the property it is the value of, when it is one. */
export function exampleOf(schema: unknown, schemas: Json, name: string | undefined, depth: number): unknown {
  const current = node(schema);
  if (depth > MAX_DEPTH) return undefined;
  if (typeof current.$ref === 'string') {
    return exampleOf(schemas[current.$ref.replace('#/components/schemas/', '')], schemas, name, depth + 1);
  }
  if (current.const !== undefined) return current.const;
  if (Array.isArray(current.examples) && current.examples.length > 0) return current.examples[0] as unknown;
  if (current.example !== undefined) return current.example;
  const named = name === undefined ? undefined : NAMED_VALUES[name];
  if (named !== undefined && accepts(current, named, schemas)) return named;
  if (current.default !== undefined && accepts(current, current.default, schemas)) return current.default;
  if (Array.isArray(current.enum)) return current.enum[0] as unknown;
  const choices = (current.anyOf ?? current.oneOf) as unknown[] | undefined;
  if (Array.isArray(choices)) {
    // A value over null: an example shows the field filled in.
    const ordered = [...choices].sort((a, b) => Number(isNull(a)) - Number(isNull(b)));
    for (const choice of ordered) {
      const value = exampleOf(choice, schemas, name, depth + 1);
      if (value !== undefined) return value;
    }
    return undefined;
  }
  if (Array.isArray(current.allOf)) {
    const parts = current.allOf.map((part) => exampleOf(part, schemas, name, depth + 1));
    return parts.every((part) => part && typeof part === 'object') ? Object.assign({}, ...parts) : parts[0];
  }
  switch (typeOf(current)) {
    case 'object':
      return objectExample(current, schemas, depth);
    case 'array':
      return arrayExample(current, schemas, name, depth);
    case 'string':
      return stringExample(current, name);
    case 'integer':
      return numberExample(current, true);
    case 'number':
      return numberExample(current, false);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

function isNull(schema: unknown): boolean {
  return node(schema).type === 'null';
}

function typeOf(schema: Json): string | undefined {
  if (Array.isArray(schema.type)) return (schema.type as string[]).find((type) => type !== 'null') ?? 'null';
  if (typeof schema.type === 'string') return schema.type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

function objectExample(schema: Json, schemas: Json, depth: number): Json | undefined {
  const example: Json = {};
  for (const [property, value] of Object.entries(node(schema.properties))) {
    const field = exampleOf(value, schemas, property, depth + 1);
    if (field !== undefined) example[property] = field;
    else if ((schema.required as string[] | undefined)?.includes(property)) return undefined;
  }
  return example;
}

function arrayExample(schema: Json, schemas: Json, name: string | undefined, depth: number): unknown[] | undefined {
  const items = node(schema.items);
  const count = Math.max(1, Number(schema.minItems ?? 1));
  // Distinct values where the list allows no repeat: the enum's first ones.
  if (Array.isArray(items.enum)) return items.enum.slice(0, Math.max(count, Math.min(2, items.enum.length))) as unknown[];
  const item = exampleOf(items, schemas, name === undefined ? undefined : `${name}[]`, depth + 1);
  if (item === undefined) return undefined;
  return Array.from({ length: count }, () => item);
}

function stringExample(schema: Json, name: string | undefined): string | undefined {
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  const candidates = [
    ...(format ? [format] : []),
    ...(typeof schema.pattern === 'string' ? PATTERN_SAMPLES : []),
    ...(name ? [words(name)] : []),
    'text',
    'x'.repeat(Math.max(1, Number(schema.minLength ?? 1))),
  ];
  return candidates.find((candidate) => stringFits(schema, candidate));
}

function stringFits(schema: Json, value: string): boolean {
  const length = [...value].length;
  if (typeof schema.minLength === 'number' && length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) return false;
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) return false;
  if (schema.format === 'uuid' && value !== FORMATS.uuid && !/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i.test(value)) return false;
  if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) return false;
  return true;
}

/** `subscription_name` reads "Subscription name". */
function words(name: string): string {
  const text = name
    .replace(/\[\]$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function numberExample(schema: Json, integer: boolean): number {
  const minimum = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  let value = integer ? 2 : 125.5;
  if (minimum !== undefined && value < minimum) value = minimum;
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) value = schema.exclusiveMinimum + 1;
  if (maximum !== undefined && value > maximum) value = maximum;
  return integer ? Math.trunc(value) : value;
}

/** Whether `value` is one `schema` allows, as far as this simple reading goes (the test's validator has the last word). */
function accepts(schema: Json, value: unknown, schemas: Json): boolean {
  if (typeof schema.$ref === 'string') return accepts(node(schemas[schema.$ref.replace('#/components/schemas/', '')]), value, schemas);
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  const choices = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(choices)) return choices.some((choice) => accepts(node(choice), value, schemas));
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [typeOf(schema)];
  // The empty schema: any value.
  if (types[0] === undefined && Object.keys(schema).every((key) => key === 'description')) return true;
  if (value === null) return types.includes('null');
  if (typeof value === 'string') return types.includes('string') && stringFits(schema, value);
  if (typeof value === 'boolean') return types.includes('boolean');
  if (typeof value === 'number') {
    const fits =
      (typeof schema.minimum !== 'number' || value >= schema.minimum) && (typeof schema.maximum !== 'number' || value <= schema.maximum);
    return fits && (types.includes('number') || (types.includes('integer') && Number.isInteger(value)));
  }
  if (Array.isArray(value)) {
    const items = node(schema.items);
    const sized =
      (typeof schema.minItems !== 'number' || value.length >= schema.minItems) &&
      (typeof schema.maxItems !== 'number' || value.length <= schema.maxItems);
    return types.includes('array') && sized && value.every((item) => accepts(items, item, schemas));
  }
  if (value && typeof value === 'object') {
    const properties = node(schema.properties);
    const fields = Object.entries(value as Json);
    const required = (schema.required as string[] | undefined) ?? [];
    return (
      types.includes('object') &&
      required.every((key) => key in (value as Json)) &&
      fields.every(([key, field]) =>
        key in properties ? accepts(node(properties[key]), field, schemas) : schema.additionalProperties !== false,
      )
    );
  }
  return false;
}
