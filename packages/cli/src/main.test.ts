import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { API_VERSION } from './api.js';
import type { Io } from './context.js';
import { EXIT } from './errors.js';
import { main } from './main.js';

const CLUSTER = '0996b658-9d4a-4a38-a50c-220508673754';
const TOKEN = `kumo_pat_${'a'.repeat(43)}`;

/** `kumo …` in this process with a fake portal: what it printed, its exit status and the requests it sent. */
async function kumo(args: string[], answer: (request: Request) => Response | Promise<Response>) {
  const out: string[] = [];
  const err: string[] = [];
  const requests: Request[] = [];
  const io: Io = {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    env: { KUMO_TOKEN: TOKEN, KUMO_API_URL: 'https://portal.example.com', XDG_CONFIG_HOME: '/nonexistent' },
    stdin: Readable.from([]),
    fetch: (input) => {
      const request = input as Request;
      requests.push(request);
      return Promise.resolve(answer(request));
    },
  };
  const status = await main(['node', 'kumo', ...args], io);
  return { status, stdout: out.join(''), stderr: err.join(''), requests };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const refusal = (code: string, message: string, status: number, headers: Record<string, string> = {}) =>
  json({ errorDetails: { error_code: code, error_message: message, request_id: 'req-1' } }, status, headers);

describe('kumo’s errors', () => {
  it('print the API’s message and request id on one line, with status 1', async () => {
    const run = await kumo(['clusters', 'stop', CLUSTER], () =>
      refusal('CLUSTER_STATE_CONFLICT', 'The cluster can be stopped only when it is online.', 409),
    );
    expect(run).toMatchObject({ status: EXIT.api, stdout: '' });
    expect(run.stderr).toBe('kumo: The cluster can be stopped only when it is online. (request id req-1)\n');
  });

  it('say when to try again on 429 and 503, from Retry-After', async () => {
    const limited = await kumo(['subscriptions', 'list'], () =>
      refusal('RATE_LIMITED', 'Too many requests.', 429, { 'retry-after': '17' }),
    );
    expect(limited.stderr).toBe('kumo: Too many requests. (request id req-1); try again in 17 s\n');
    const down = await kumo(['subscriptions', 'list'], () => new Response('<html>', { status: 503, statusText: 'Service Unavailable' }));
    expect(down.stderr).toBe('kumo: the portal answered 503 Service Unavailable; try again later\n');
    expect(down.status).toBe(EXIT.api);
  });

  it('name the field at fault, and send a 401 back to kumo login', async () => {
    const invalid = await kumo(['statements', 'get', '--subscription', CLUSTER, '--month', '2026-01'], () =>
      json(
        {
          errorDetails: { error_code: 'VALIDATION_FAILED', error_message: 'The request is not valid.' },
          field_errors: { month: 'Too early.' },
        },
        400,
        {
          'request-id': 'req-2',
        },
      ),
    );
    expect(invalid.stderr).toBe('kumo: The request is not valid. (month: Too early.) (request id req-2)\n');
    const expired = await kumo(['subscriptions', 'list'], () => refusal('TOKEN_EXPIRED', 'The token has expired.', 401));
    expect(expired.stderr).toBe(
      'kumo: The token has expired. (request id req-1); KUMO_TOKEN holds that token: set a valid one, or unset it to use the saved one\n',
    );
  });

  it('tell a portal out of reach (3), a usage error (2) and no token (4) apart, never with a stack trace', async () => {
    const offline = await kumo(['subscriptions', 'list'], () =>
      Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })),
    );
    expect(offline).toMatchObject({
      status: EXIT.network,
      stderr: expect.stringMatching(/^kumo: cannot reach the portal at https:\/\/portal.example.com \(ECONNREFUSED\)/) as unknown,
    });
    const usage = await kumo(['clusters', 'resize', CLUSTER, '--size', 'S'], () => json({}));
    expect(usage.status).toBe(EXIT.usage);
    expect(usage.stderr).toMatch(/^kumo: required option '--engines <count>' not specified/);
    expect(usage.requests).toHaveLength(0);
    for (const run of [offline, usage]) expect(run.stderr).not.toMatch(/^\s+at /m);
  });
});

describe('kumo’s requests', () => {
  it('send the token, the API version it was built for, and an Idempotency-Key on a resize', async () => {
    const answer = { deployment_id: CLUSTER, status: 'OFFLINE', size: 'S', query_engines: 2, resizing: false, message: 'Saved.' };
    const run = await kumo(['clusters', 'resize', CLUSTER, '--size', 'S', '--engines', '2', '--json'], () => json(answer));
    const [request] = run.requests;
    expect(request!.method).toBe('POST');
    expect(new URL(request!.url).pathname).toBe(`/api/cluster/resize/${CLUSTER}`);
    expect(request!.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(request!.headers.get('kumo-version')).toBe(API_VERSION);
    expect(request!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await request!.json()).toEqual({ size: 'S', query_engines: 2 });
    expect(JSON.parse(run.stdout)).toEqual(answer);
  });

  it('stop and start a cluster with the GETs the API defines', async () => {
    const run = await kumo(['clusters', 'stop', CLUSTER], () => json({ deployment_id: CLUSTER, status: 'STOPPING', message: 'Stopping.' }));
    expect(run.requests.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      `GET /api/cluster/stop/${CLUSTER}`,
    ]);
    expect(run.stdout).toBe(`Cluster:  ${CLUSTER}\nStatus:   STOPPING\nMessage:  Stopping.\n`);
  });
});
