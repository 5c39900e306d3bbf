/**
 * The AWS driver's SQL client against a stand-in for the Kumo AMI's endpoint: a local HTTP server serving the contract
 * of docs/clusters.md with Basic auth and its refusals, a slow answer and a port nobody listens on. The endpoint's
 * address comes from the stack's outputs, read through aws-sdk-client-mock.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLUSTER_SQL_MESSAGES, CLUSTER_SQL_USER } from '@kumo/contract';
import { PORTAL_SQL_USER, SqlRefusal, type ClusterSqlPort } from '../sql-port.js';
import { OUTPUTS, STACK_NAME, DEPLOYMENT_ID, cf, driver, stack, useAwsMocks } from '../../../../test/support/aws-mocks.js';
import { createAwsSqlClient } from './aws-sql-client.js';

useAwsMocks();

const PORTAL = { user: PORTAL_SQL_USER, password: 'portal-credential-0123456789abcdef' };
const refusal = (code: string, message: string) => JSON.stringify({ errorDetails: { error_code: code, error_message: message } });

/** What the stand-in engine was asked, for the tests to read. */
const seen = { authorizations: [] as string[], bodies: [] as unknown[], urls: [] as string[] };
const passwords = new Map<string, string>([[PORTAL_SQL_USER, PORTAL.password]]);
const ACTIVITY = [
  {
    id: '41',
    started_at: '2026-11-28T14:02:00.000Z',
    duration_ms: 12,
    row_count: 1,
    status: 'OK',
    user: CLUSTER_SQL_USER,
    client_address: '203.0.113.7',
    user_agent: 'DBeaver 24.1',
    query: 'select 1',
    error: null,
  },
  {
    id: '42',
    started_at: '2026-11-28T14:03:00.000Z',
    duration_ms: 1,
    row_count: null,
    status: 'REFUSED',
    user: 'scanner',
    client_address: '198.51.100.9',
    user_agent: null,
    query: '',
    error: CLUSTER_SQL_MESSAGES.credentialsInvalid,
  },
];

function authorised(request: IncomingMessage, user?: string): boolean {
  const header = request.headers.authorization ?? '';
  seen.authorizations.push(header);
  const [name, ...rest] = Buffer.from(header.replace(/^Basic /, ''), 'base64')
    .toString('utf8')
    .split(':');
  return (user === undefined || name === user) && passwords.get(name ?? '') === rest.join(':');
}

async function serveEngine(request: IncomingMessage, response: ServerResponse) {
  let text = '';
  for await (const chunk of request) text += chunk;
  const url = new URL(request.url ?? '/', 'http://engine');
  seen.urls.push(`${request.method} ${url.pathname}${url.search}`);
  const send = (status: number, body?: string) => response.writeHead(status, { 'content-type': 'application/json' }).end(body);
  if (!authorised(request, url.pathname === '/sql' ? undefined : PORTAL_SQL_USER)) {
    return send(401, refusal('CREDENTIALS_INVALID', CLUSTER_SQL_MESSAGES.credentialsInvalid));
  }
  if (request.method === 'PUT' && url.pathname.startsWith('/sql/users/')) {
    passwords.set(decodeURIComponent(url.pathname.split('/')[3]!), (JSON.parse(text) as { password: string }).password);
    return send(204);
  }
  if (request.method === 'GET' && url.pathname === '/sql/activity') {
    const after = url.searchParams.get('after');
    const records = after === null ? ACTIVITY.slice(0, 1) : ACTIVITY.filter((r) => Number(r.id) > Number(after));
    return send(200, JSON.stringify({ records, next_cursor: records.at(-1)?.id ?? after, has_more: after === null }));
  }
  const body = JSON.parse(text) as { query: string; max_rows: number };
  seen.bodies.push(body);
  switch (body.query) {
    case 'select 1':
      return send(
        200,
        JSON.stringify({ columns: [{ name: '1', type: 'INTEGER' }], rows: [[1]], row_count: 1, truncated: false, elapsed_ms: 3 }),
      );
    case 'offline':
      return send(409, refusal('CLUSTER_NOT_ONLINE', CLUSTER_SQL_MESSAGES.notOnline));
    case 'outsider':
      return send(403, refusal('NETWORK_ACCESS_DENIED', CLUSTER_SQL_MESSAGES.networkAccessDenied));
    case 'selec 1':
      return send(400, refusal('QUERY_FAILED', 'Parser Error: syntax error at or near "selec"'));
    case 'long':
      return send(400, refusal('QUERY_TIMEOUT', CLUSTER_SQL_MESSAGES.timeout));
    case 'huge':
      return send(413, refusal('QUERY_TOO_LARGE', CLUSTER_SQL_MESSAGES.queryTooLarge));
    case 'crash':
      return send(502, '<html>Bad Gateway</html>');
    case 'garbage':
      return send(200, '<html>It works!</html>');
    case 'slow':
      return; // never answers: the client gives up at its timeout
    default:
      return send(400, refusal('SOMETHING_NEW', 'A code the contract does not have'));
  }
}

let server: Server;
let baseUrl: string;
let deadUrl: string;

const listen = (s: Server) => new Promise<number>((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)));

beforeAll(async () => {
  server = createServer((request, response) => void serveEngine(request, response));
  baseUrl = `http://127.0.0.1:${await listen(server)}/`;
  const dead = createServer();
  deadUrl = `http://127.0.0.1:${await listen(dead)}/`;
  await new Promise((resolve) => dead.close(resolve));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen.authorizations.length = 0;
  seen.bodies.length = 0;
  seen.urls.length = 0;
});

const clientAt = (url: string | null, timeoutMs = 2_000) =>
  createAwsSqlClient({ portalUrlOf: async () => url, queryTimeoutMs: timeoutMs, requestTimeoutMs: timeoutMs });

const ask = (client: ClusterSqlPort, query: string, credential = PORTAL) =>
  client.query(STACK_NAME, credential, { query, maxRows: 1000 }, 'us-east-1');

async function refusalOf(work: Promise<unknown>): Promise<Pick<SqlRefusal, 'statusCode' | 'code' | 'message'>> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SqlRefusal);
  const { statusCode, code, message } = error as SqlRefusal;
  return { statusCode, code, message };
}

const UNAVAILABLE = { statusCode: 503, code: 'SQL_ENDPOINT_UNAVAILABLE', message: CLUSTER_SQL_MESSAGES.engineUnavailable };

describe("the AWS driver's SQL endpoint", () => {
  it("finds the endpoint at the stack's Web Portal address, reading the stack once, and sends the query with Basic auth", async () => {
    cf.on(DescribeStacksCommand).resolves({
      Stacks: [stack('CREATE_COMPLETE', { Outputs: OUTPUTS.map((o) => (o.OutputKey === 'KumoUrl' ? { ...o, OutputValue: baseUrl } : o)) })],
    });
    const sql = driver().sql!;
    expect(sql.endpointFor(STACK_NAME, 'https://54.210.10.20/')).toBe('https://54.210.10.20/sql');
    expect(sql.endpointFor(STACK_NAME, null)).toBeNull();

    await expect(ask(sql, 'select 1')).resolves.toEqual({
      columns: [{ name: '1', type: 'INTEGER' }],
      rows: [[1]],
      rowCount: 1,
      truncated: false,
      elapsedMs: 3,
    });
    await ask(sql, 'select 1');
    expect(cf.commandCalls(DescribeStacksCommand)).toHaveLength(1);
    expect(seen.urls).toEqual(['POST /sql', 'POST /sql']);
    expect(seen.bodies[0]).toEqual({ query: 'select 1', max_rows: 1000 });
    expect(seen.authorizations[0]).toBe(`Basic ${Buffer.from(`${PORTAL.user}:${PORTAL.password}`).toString('base64')}`);
  });

  it.each([
    ['a wrong password', 'select 1', { ...PORTAL, password: 'wrong' }, 401, 'CREDENTIALS_INVALID', CLUSTER_SQL_MESSAGES.credentialsInvalid],
    ['an address outside the list', 'outsider', PORTAL, 403, 'NETWORK_ACCESS_DENIED', CLUSTER_SQL_MESSAGES.networkAccessDenied],
    ['a cluster not online', 'offline', PORTAL, 409, 'CLUSTER_NOT_ONLINE', CLUSTER_SQL_MESSAGES.notOnline],
    ["the engine's error", 'selec 1', PORTAL, 400, 'QUERY_FAILED', 'Parser Error: syntax error at or near "selec"'],
    ['a query cancelled after 60 s', 'long', PORTAL, 400, 'QUERY_TIMEOUT', CLUSTER_SQL_MESSAGES.timeout],
    ['a query over 100 KB', 'huge', PORTAL, 413, 'QUERY_TOO_LARGE', CLUSTER_SQL_MESSAGES.queryTooLarge],
  ])("gives back %s as the endpoint's refusal, with its code and message", async (_case, query, credential, statusCode, code, message) => {
    expect(await refusalOf(ask(clientAt(baseUrl), query, credential))).toEqual({ statusCode, code, message });
  });

  it('answers 503 when nobody listens, when the answer takes longer than the timeout, or when it is off the contract', async () => {
    expect(await refusalOf(ask(clientAt(deadUrl), 'select 1'))).toEqual(UNAVAILABLE);
    const started = Date.now();
    expect(await refusalOf(ask(clientAt(baseUrl, 300), 'slow'))).toEqual(UNAVAILABLE);
    expect(Date.now() - started).toBeLessThan(2_000);
    for (const query of ['crash', 'garbage', 'unknown code']) expect(await refusalOf(ask(clientAt(baseUrl), query))).toEqual(UNAVAILABLE);
  });

  it('answers 503 while the stack gives no address, or cannot be read', async () => {
    expect(await refusalOf(ask(clientAt(null), 'select 1'))).toEqual(UNAVAILABLE);
    const unreadable = createAwsSqlClient({
      portalUrlOf: async () => {
        throw new Error('Throttling: Rate exceeded');
      },
    });
    expect(await refusalOf(ask(unreadable, 'select 1'))).toEqual(UNAVAILABLE);
  });

  it("sets a user's password with the portal's credential, and refuses another credential", async () => {
    const sql = clientAt(baseUrl);
    await sql.setPassword(STACK_NAME, { user: CLUSTER_SQL_USER, password: 'N3w#Password-1' }, PORTAL, 'us-east-1');
    expect(seen.urls).toEqual([`PUT /sql/users/${CLUSTER_SQL_USER}/password`]);
    expect(passwords.get(CLUSTER_SQL_USER)).toBe('N3w#Password-1');
    const asCustomer = sql.setPassword(
      STACK_NAME,
      { user: CLUSTER_SQL_USER, password: 'An0ther#Password' },
      { user: CLUSTER_SQL_USER, password: 'N3w#Password-1' },
    );
    expect(await refusalOf(asCustomer)).toMatchObject({ statusCode: 401, code: 'CREDENTIALS_INVALID' });
    expect(passwords.get(CLUSTER_SQL_USER)).toBe('N3w#Password-1');
  });

  it("reads the endpoint's activity page by page after a cursor, as the history records it", async () => {
    const sql = clientAt(baseUrl);
    const first = await sql.activity!(STACK_NAME, PORTAL, null, 'us-east-1');
    expect(first).toEqual({
      records: [
        {
          deploymentId: DEPLOYMENT_ID,
          recordId: '41',
          startedAt: new Date('2026-11-28T14:02:00.000Z'),
          durationMs: 12,
          rowCount: 1,
          status: 'OK',
          userLabel: CLUSTER_SQL_USER,
          clientAddress: '203.0.113.7',
          userAgent: 'DBeaver 24.1',
          query: 'select 1',
          error: null,
        },
      ],
      cursor: '41',
      more: true,
    });
    const second = await sql.activity!(STACK_NAME, PORTAL, first.cursor, 'us-east-1');
    expect(second.records.map((r) => [r.recordId, r.status, r.userLabel])).toEqual([['42', 'REFUSED', 'scanner']]);
    expect(second).toMatchObject({ cursor: '42', more: false });
    expect(seen.urls).toEqual(['GET /sql/activity', 'GET /sql/activity?after=41']);
    expect(await refusalOf(sql.activity!(STACK_NAME, { ...PORTAL, password: 'wrong' }, null))).toMatchObject({ statusCode: 401 });
    expect(await refusalOf(clientAt(deadUrl).activity!(STACK_NAME, PORTAL, null))).toEqual(UNAVAILABLE);
  });
});
