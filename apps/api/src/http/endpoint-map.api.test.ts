import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../test/support/databases.js';
import { get, startTestApp, type TestContext } from '../../test/support/harness.js';

const kinds = await databaseKinds();
const ENDPOINTS_FILE = fileURLToPath(new URL('../../../../packages/contract/src/endpoints.ts', import.meta.url));

/** The console's endpoint map, read from its source: 'METHOD pattern' for each path of each method's interface. */
function endpointMap(): { route: string; pattern: RegExp }[] {
  const source = readFileSync(ENDPOINTS_FILE, 'utf8');
  const entries: { route: string; pattern: RegExp }[] = [];
  for (const [, method, body] of source.matchAll(/export interface (Get|Post|Put|Patch|Delete)Endpoints \{(?!\})([\s\S]*?)\n\}/g)) {
    for (const [, quoted, template] of body!.matchAll(/^\s*(?:'([^']+)'|\[path: `([^`]+)`\])/gm)) {
      const path = (quoted ?? template)!;
      const escaped = path.replace(/[.*+?^()|[\]\\]/g, '\\$&').replace(/\$\{string\}/g, '\\{[A-Za-z]+\\}');
      entries.push({ route: `${method!.toUpperCase()} ${path}`, pattern: new RegExp(`^${method!.toUpperCase()} ${escaped}$`) });
    }
  }
  return entries;
}

describe("the console's endpoint map and the served OpenAPI document", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kinds[0]!);
  });
  afterAll(() => ctx.close());

  it('names only operations the document serves, with the same method and path', async () => {
    const document = (await get(ctx, '/api/openapi.json')).json<{ paths: Record<string, Record<string, unknown>> }>();
    const served = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const map = endpointMap();
    expect(map.length).toBeGreaterThan(50);
    expect(map.filter(({ pattern }) => !served.some((route) => pattern.test(route))).map(({ route }) => route)).toEqual([]);
  });

  it('gives every operation a unique operationId, a summary, tags and a description for every status', async () => {
    interface Operation {
      operationId: string;
      summary?: string;
      tags?: string[];
      responses: Record<string, { description: string }>;
    }
    const document = (await get(ctx, '/api/openapi.json')).json<{ paths: Record<string, Record<string, Operation>> }>();
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(operations.length);
    for (const operation of operations) {
      expect(operation.summary, operation.operationId).toBeTruthy();
      expect(operation.tags, operation.operationId).toBeDefined();
      for (const response of Object.values(operation.responses)) {
        expect(response.description, operation.operationId).not.toBe('Default Response');
      }
    }
  });
});
