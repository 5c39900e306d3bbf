import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { answerChecker } from './support/answer-check.js';

const document = JSON.parse(readFileSync(fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url)), 'utf8'));

const answer = (statusCode: number, body: unknown): LightMyRequestResponse =>
  ({
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(body),
    json: () => body,
  }) as unknown as LightMyRequestResponse;

describe('the strict check of API answers against the OpenAPI document', () => {
  it('compiles every JSON answer schema of the document in strict mode', () => {
    const check = answerChecker(document);
    let compiled = 0;
    for (const [path, item] of Object.entries<Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>(
      document.paths,
    )) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (!response.content?.['application/json']) continue;
          const url = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
          // Compiling happens on the first check; the body may or may not match, only compiling is asked here.
          try {
            check(method.toUpperCase(), url, answer(Number(status), null));
          } catch (error) {
            expect(String(error)).toContain('does not match the document');
          }
          compiled++;
        }
      }
    }
    expect(compiled).toBeGreaterThan(500);
  });

  it('refuses an answer that breaks its schema, and lets a matching one through', () => {
    const check = answerChecker(document);
    const url = '/api/subscription/create';
    expect(() =>
      check('POST', url, answer(200, { subscription_id: '6f1c2d44-1b7a-4c2e-9f3a-0d6c1e2b3a4f', message: 'Created' })),
    ).not.toThrow();
    expect(() => check('POST', url, answer(200, { subscription_id: 42 }))).toThrow(/does not match the document/);
    expect(() => check('POST', url, answer(404, { errorDetails: { error_code: 'NOT_A_CODE', error_message: 'x' } }))).toThrow(
      /does not match the document/,
    );
    expect(() =>
      check('POST', url, answer(404, { errorDetails: { error_code: 'NOT_FOUND', error_message: 'x', request_id: 'r' } })),
    ).not.toThrow();
  });

  it('refuses a status the document does not list for the operation, whatever the body, and knows a path from a pattern', () => {
    const check = answerChecker(document);
    const created = { subscription_id: '6f1c2d44-1b7a-4c2e-9f3a-0d6c1e2b3a4f', message: 'Created' };
    expect(() => check('POST', '/api/subscription/create', answer(201, created))).toThrow(
      /POST \/api\/subscription\/create answered 201, a status the document does not list for it \(200, /,
    );
    const empty = { ...answer(418, null), headers: {}, body: '' } as unknown as LightMyRequestResponse;
    expect(() => check('GET', '/api/subscription/list', empty)).toThrow(/answered 418/);
    // A literal path is its own operation, not a value of a parameter of another.
    expect(() => check('GET', '/api/subscription/list', answer(200, []))).not.toThrow();
    // A failure of the server may come from any call, in the one error shape.
    const failure = { errorDetails: { error_code: 'INTERNAL_ERROR', error_message: 'x', request_id: 'r' } };
    expect(() => check('GET', '/api/subscription/list', answer(500, failure))).not.toThrow();
    expect(() => check('GET', '/api/subscription/list', answer(500, { oops: true }))).toThrow(/does not match the document/);
    // Calls the document does not describe (the console's pages, the dev tools) are not checked.
    expect(() => check('GET', '/clusters', answer(200, null))).not.toThrow();
  });
});
