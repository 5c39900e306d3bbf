/**
 * Every answer of the API tests checked against the served OpenAPI document with a strict validator: the status must
 * be one the document lists for the operation, and the JSON body of a documented status must match its documented
 * schema, so the document cannot drift from what the API sends.
 * Installed on each test app's `inject` by the harness; a mismatch fails the call that got it.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

type Json = { [key: string]: unknown };
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const DEFS = 'kumo-components';
/** Annotations of OpenAPI and of this document that JSON Schema does not define. */
const ANNOTATIONS = ['example', 'x-changes-state', 'discriminator', 'xml', 'externalDocs'];

interface Operation {
  method: string;
  pattern: RegExp;
  path: string;
  responses: Json;
}

const node = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
const withDefsRefs = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', `"${DEFS}#/$defs/`)) as unknown;

/** A strict validator of the document's schemas: `compile` takes a schema of the document, its $refs as they are. */
export function documentValidator(document: Json) {
  const ajv = new Ajv2020({ strict: true, allErrors: false, allowUnionTypes: true, validateFormats: true });
  addFormats(ajv);
  ajv.addVocabulary(ANNOTATIONS);
  ajv.addSchema({ $id: DEFS, $defs: withDefsRefs(node(document.components).schemas) as Json });
  return { ajv, compile: (schema: unknown): ValidateFunction => ajv.compile(withDefsRefs(schema) as Json) };
}

/** A check of one answer against `document`: throws when its status is not documented for the operation, or when a
 * documented JSON answer does not match its schema. */
export function answerChecker(document: Json) {
  const { ajv, compile } = documentValidator(document);
  const operations: Operation[] = Object.entries(node(document.paths)).flatMap(([path, item]) =>
    Object.entries(node(item)).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
      responses: node(node(operation).responses),
    })),
  );
  // As the router does: a path of literal segments before one with parameters (`/api/x/list` before `/api/x/{id}`).
  operations.sort((a, b) => parameterCount(a.path) - parameterCount(b.path) || b.path.length - a.path.length);
  const validators = new Map<string, ValidateFunction | null>();

  return (method: string, url: string, response: LightMyRequestResponse): void => {
    const pathname = url.split('?')[0] ?? '';
    const operation = operations.find((candidate) => candidate.method === method && candidate.pattern.test(pathname));
    if (operation && !documents(operation.responses, response.statusCode)) {
      const listed = Object.keys(operation.responses).join(', ');
      throw new Error(
        `${method} ${operation.path} answered ${response.statusCode}, a status the document does not list for it (${listed})\n` +
          response.body.slice(0, 500),
      );
    }
    const mediaType = String(response.headers['content-type'] ?? '').split(';')[0];
    // A compressed answer is checked by the compression tests, in its plain twin.
    const encoded = response.headers['content-encoding'] !== undefined;
    if (!operation || mediaType !== 'application/json' || response.body === '' || encoded) return;
    const key = `${method} ${operation.path} ${response.statusCode}`;
    if (!validators.has(key)) {
      const documented = operation.responses[String(response.statusCode)] ?? (response.statusCode === 500 ? SERVER_ERROR : undefined);
      const schema = node(node(node(node(documented).content)['application/json']).schema);
      validators.set(key, Object.keys(schema).length > 0 ? compile(schema) : null);
    }
    const validate = validators.get(key);
    if (validate && !validate(response.json())) {
      throw new Error(`${key}: the answer does not match the document: ${ajv.errorsText(validate.errors)}\n${response.body.slice(0, 500)}`);
    }
  };
}

const parameterCount = (path: string) => path.split('{').length - 1;

/**
 * The status itself, its range (`4XX`) or `default`; or 500, which any call answers when the server fails (the fault
 * tests cause it on purpose) and no operation lists: its body is still checked against the one error shape.
 */
function documents(responses: Json, status: number): boolean {
  return status === 500 || [String(status), `${String(status)[0]}XX`, 'default'].some((key) => key in responses);
}

const SERVER_ERROR = { content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } } };

/** Wraps the app's inject so each answer is checked; the document is read from the app itself, once. */
export function checkAnswersAgainstDocument(app: FastifyInstance): void {
  let check: ReturnType<typeof answerChecker> | undefined;
  const inject = app.inject.bind(app) as (options: InjectOptions | string) => Promise<LightMyRequestResponse>;
  const checked = async (options: InjectOptions | string) => {
    const response = await inject(options);
    check ??= answerChecker(app.swagger() as Json);
    const { method = 'GET', url = '/' } = typeof options === 'string' ? { url: options } : options;
    check(String(method).toUpperCase(), typeof url === 'string' ? url : (url.pathname ?? '/'), response);
    return response;
  };
  (app as unknown as { inject: typeof checked }).inject = checked;
}
