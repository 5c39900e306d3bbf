import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exampleOf } from '../src/http/openapi-examples.js';
import { documentValidator } from './support/answer-check.js';

type Json = Record<string, unknown>;
interface Media {
  schema?: unknown;
  example?: unknown;
}
interface Operation {
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}

// The committed document is the served one (`npm run openapi -- --check` fails otherwise).
const document = JSON.parse(readFileSync(fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url)), 'utf8')) as Json;
const operations = Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
);

/** Every JSON request body and 2xx JSON answer of the document, by where it is. */
const examples = operations.flatMap(({ name, operation }) => [
  ...Object.entries(operation.requestBody?.content ?? {})
    .filter(([type]) => type === 'application/json')
    .map(([, media]) => ({ where: `${name} request body`, media })),
  ...Object.entries(operation.responses)
    .filter(([status]) => status.startsWith('2'))
    .flatMap(([status, response]) =>
      Object.entries(response.content ?? {})
        .filter(([type]) => type === 'application/json')
        .map(([, media]) => ({ where: `${name} ${status}`, media })),
    ),
]);

describe('the OpenAPI document’s examples', () => {
  it('give every JSON request body and every 2xx JSON answer an example', () => {
    const missing = examples.filter(({ media }) => media.example === undefined).map(({ where }) => where);
    expect(missing).toEqual([]);
    expect(examples.filter(({ where }) => where.includes('request body')).length).toBeGreaterThanOrEqual(30);
    expect(examples.length).toBeGreaterThanOrEqual(150);
  });

  it('match their schemas under the strict validator the API tests use', () => {
    const { ajv, compile } = documentValidator(document);
    const wrong = examples.flatMap(({ where, media }) => {
      const validate = compile(media.schema ?? {});
      return validate(media.example) ? [] : [`${where}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(wrong).toEqual([]);
  });

  it('show a filled-in value over null, realistic values for known names, and the bounds a schema sets', () => {
    const schemas = {};
    const budget = {
      type: 'object',
      properties: {
        monthly_amount: { anyOf: [{ type: 'number' }, { type: 'null' }] },
        thresholds: { type: 'array', minItems: 1, items: { type: 'integer', minimum: 1, maximum: 200 } },
        subscription_id: { type: 'string', format: 'uuid' },
        engines: { type: 'integer', minimum: 3, maximum: 5 },
        month: { type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])$' },
        kind: { type: 'string', enum: ['ACTUAL', 'FORECAST'] },
      },
      required: ['monthly_amount'],
    };
    expect(exampleOf(budget, schemas, undefined, 0)).toEqual({
      monthly_amount: 5000,
      thresholds: [50, 80, 100],
      subscription_id: '0996b658-9d4a-4a38-a50c-220508673754',
      engines: 3,
      month: '2026-10',
      kind: 'ACTUAL',
    });
    // A known name whose value the schema refuses falls back to what the schema allows.
    expect(exampleOf({ type: 'string', maxLength: 12 }, schemas, 'cluster_name', 0)).toBe('Cluster name');
    expect(exampleOf({ type: 'string', minLength: 20, maxLength: 30 }, schemas, 'code', 0)).toBe('x'.repeat(20));
  });
});
