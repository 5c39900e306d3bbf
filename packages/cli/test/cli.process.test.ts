import { statSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, kumo, Portal, sleep, type Run } from './support/portal.js';
import { createToken, createWebhook, signIn, withToken } from './support/session.js';

// The built `kumo`, run as a child process the way a user runs it, against one real portal on the embedded default
// with the demo account: a running cluster (Sales-Analytics) and a stopped one (Churn-Models), months of usage.

interface Cluster {
  deployment_id: string;
  cluster_name: string;
  status: string;
  size: string;
  query_engines: number;
}
interface Subscription {
  subscription_id: string;
  subscription_name: string;
}

const REQUEST_ID = /\(request id [0-9a-f-]{36}\)/;
/** What no user should ever see: a stack trace. */
const STACK = /^\s+at .+:\d+:\d+\)?$/m;

let portal: Portal;
let home: string;
let writeToken: string;
let readToken: string;
let production: Subscription;
let running: Cluster;
let stopped: Cluster;

/** `kumo` with this test run's own config folder and the portal's address. */
function run(args: string[], options: { env?: Record<string, string | undefined>; input?: string } = {}): Promise<Run> {
  return kumo(args, { ...options, env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), KUMO_API_URL: portal.base, ...options.env } });
}

function expectFailure(result: Run, status: number, message: RegExp): void {
  expect(result.status, result.stderr).toBe(status);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^kumo: /);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(STACK);
}

const cents = (amount: number) => Math.round(amount * 100);
/** The month two months back, in UTC: a whole month of the demo's history, long charged. */
function pastMonth(): { month: string; from: string; to: string } {
  const now = new Date();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 0));
  return { month: start.toISOString().slice(0, 7), from: start.toISOString().slice(0, 10), to: end.toISOString().slice(0, 10) };
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'kumo-cli-home-'));
  portal = new Portal(await freePort());
  await portal.start();
  const session = await signIn(portal.base);
  writeToken = await createToken(portal.base, session, 'cli-write', 'WRITE');
  readToken = await createToken(portal.base, session, 'cli-read', 'READ');
  const subscriptions = await withToken<Subscription[]>(portal.base, writeToken, '/api/subscription/list');
  production = subscriptions.find((subscription) => subscription.subscription_name === 'Production')!;
  const view = await withToken<{ clusters: Cluster[] }[]>(portal.base, writeToken, '/api/cluster/view');
  const clusters = view.flatMap((subscription) => subscription.clusters);
  running = clusters.find((cluster) => cluster.status === 'ONLINE')!;
  stopped = clusters.find((cluster) => cluster.status === 'OFFLINE')!;
  expect(running && stopped && production).toBeTruthy();
});

afterAll(async () => {
  await portal?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('kumo against a real portal', () => {
  it('signs in with a token from standard input, checked by the portal and kept in a file only its owner can read', async () => {
    const refused = await run(['login', '--token'], { input: `kumo_pat_${'A'.repeat(43)}\n` });
    expectFailure(refused, 1, REQUEST_ID);
    expect(refused.stderr).toMatch(/kumo login --token/);
    expectFailure(await run(['login', '--token'], { input: 'not-a-token\n' }), 2, /not a personal API token/);

    const login = await run(['login', '--token'], { input: `${writeToken}\n` });
    expect(login.status, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Signed in to ${portal.base} (2 subscriptions)`);
    const file = join(home, 'config', 'kumo', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'config', 'kumo')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ api_url: portal.base, token: writeToken });
  });

  it('lists subscriptions and clusters as aligned tables with dollars, or as the API’s JSON', async () => {
    const table = await run(['subscriptions', 'list']);
    expect(table.status, table.stderr).toBe(0);
    const [header, ...rows] = table.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID\s+NAME\s+STATUS\s+BALANCE\s+CREDITS\s+THIS MONTH\s+FORECAST\s+CLUSTERS$/);
    expect(rows).toHaveLength(2);
    // Right-aligned money: every row's BALANCE ends in the same column as its header.
    const balanceEnd = header!.indexOf('BALANCE') + 'BALANCE'.length;
    for (const row of rows) expect(row.slice(0, balanceEnd)).toMatch(/\$\d{1,3}(,\d{3})*\.\d{2}$/);

    // The address saved by kumo login serves when neither KUMO_API_URL nor --api-url names one.
    const json = await run(['subscriptions', 'list', '--json'], { env: { KUMO_API_URL: undefined } });
    expect(json.status, json.stderr).toBe(0);
    const listed = JSON.parse(json.stdout) as Subscription[];
    expect(listed.map((subscription) => subscription.subscription_id).sort()).toEqual(
      (await withToken<Subscription[]>(portal.base, writeToken, '/api/subscription/list')).map((s) => s.subscription_id).sort(),
    );

    const clusters = await run(['clusters', 'list', '--subscription', production.subscription_id]);
    expect(clusters.stdout).toMatch(new RegExp(`^${running.deployment_id}\\s+${running.cluster_name}\\s+ONLINE\\s+`, 'm'));
    expect(clusters.stdout).not.toContain(stopped.deployment_id);
    const details = await run(['clusters', 'get', running.deployment_id]);
    expect(details.stdout).toMatch(new RegExp(`^Name:\\s+${running.cluster_name}$`, 'm'));
    expect(details.stdout).toMatch(/^Balance:\s+\$[\d,]+\.\d{2}$/m);
    const detailsJson = JSON.parse((await run(['clusters', 'get', running.deployment_id, '--json'])).stdout) as Cluster;
    expect(detailsJson).toMatchObject({ deployment_id: running.deployment_id, cluster_name: running.cluster_name });
  });

  it('stops and starts a cluster, and prints the portal’s refusal of a stop it cannot do', async () => {
    const stop = await run(['clusters', 'stop', running.deployment_id]);
    expect(stop.status, stop.stderr).toBe(0);
    expect(stop.stdout).toMatch(/^Status:\s+STOPPING$/m);
    await waitForStatus(running.deployment_id, 'OFFLINE');
    expectFailure(await run(['clusters', 'stop', running.deployment_id]), 1, /only when it is online.* \(request id [0-9a-f-]{36}\)$/m);

    const start = JSON.parse((await run(['clusters', 'start', running.deployment_id, '--json'])).stdout) as Cluster;
    expect(start).toMatchObject({ deployment_id: running.deployment_id, status: 'STARTING' });
    await waitForStatus(running.deployment_id, 'ONLINE');
  });

  it('resizes a stopped cluster with an Idempotency-Key: the same key answers the first answer again', async () => {
    const args = ['clusters', 'resize', stopped.deployment_id, '--size', 'S', '--engines', '2'];
    const first = await run([...args, '--idempotency-key', 'cli-resize-1']);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^Size:\s+S × 2$/m);
    const replay = await run([...args, '--idempotency-key', 'cli-resize-1']);
    expect(replay).toEqual(first);
    // A new key is a new request: nothing left to change.
    expectFailure(await run(args), 1, /already has this size/);
    expectFailure(await run(['clusters', 'resize', stopped.deployment_id, '--size', 'XXL', '--engines', '2']), 2, /XS, S, M, L, XL/);
    expectFailure(await run(['clusters', 'resize', stopped.deployment_id, '--size', 'S', '--engines', '9']), 2, /1 to 5/);
  });

  it('exports a month’s usage as CSV whose amounts add up to the statement’s usage, to the cent', async () => {
    const { month, from, to } = pastMonth();
    const subscription = ['--subscription', production.subscription_id];
    const csv = await run(['usage', 'export', ...subscription, '--from', from, '--to', to, '--granularity', 'month', '--format', 'csv']);
    expect(csv.status, csv.stderr).toBe(0);
    const [header, ...lines] = csv.stdout.trimEnd().split(/\r?\n/);
    expect(header).toBe('period_start,cluster_id,cluster_name,dimension,quantity,unit,rate,free_units_applied,amount,paid_from');
    expect(lines.length).toBeGreaterThan(0);
    const exported = lines.reduce((sum, line) => sum + cents(Number(line.split(',')[8])), 0);

    const statement = await run(['statements', 'get', ...subscription, '--month', month, '--json']);
    const json = JSON.parse(statement.stdout) as { usage: { total: number }; closing_balance: number };
    expect(exported).toBe(cents(json.usage.total));
    expect(json).toEqual(
      await withToken(portal.base, writeToken, `/api/subscription/statement/${production.subscription_id}?month=${month}`),
    );
    const readable = await run(['statements', 'get', ...subscription, '--month', month]);
    const closing = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(json.closing_balance);
    expect(readable.stdout).toMatch(new RegExp(`^Closing balance:\\s+${closing.replace(/[$.]/g, '\\$&')}$`, 'm'));

    const pdf = join(home, 'statement.pdf');
    const saved = await run(['statements', 'get', ...subscription, '--month', month, '--pdf', pdf]);
    expect(saved.status, saved.stderr).toBe(0);
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    expect(statSync(pdf).mode & 0o777).toBe(0o600);

    const asJson = await run(['usage', 'export', ...subscription, '--from', from, '--to', from, '--json']);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ from, to: from, granularity: 'DAY' });
    expectFailure(await run(['usage', 'export', ...subscription, '--from', '2020-01-01', '--to', to]), 1, /13 months/);
    expectFailure(await run(['usage', 'export', '--from', from, '--to', to]), 2, /--subscription/);
  });

  it('sets a budget keeping what is not given, and reads it back', async () => {
    const subscription = ['--subscription', production.subscription_id];
    const set = await run(['budgets', 'set', ...subscription, '--amount', '2500', '--thresholds', '50,100', '--alert-on-forecast']);
    expect(set.status, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/^Monthly budget:\s+\$2,500\.00$/m);
    await run(['budgets', 'set', ...subscription, '--amount', '1,234.5']);
    const budget = await run(['budgets', 'get', ...subscription]);
    expect(budget.stdout).toMatch(/^Monthly budget:\s+\$1,234\.50$/m);
    expect(budget.stdout).toMatch(/^Thresholds:\s+50%, 100%$/m);
    expect(budget.stdout).toMatch(/^Alert on forecast:\s+yes$/m);
    expectFailure(await run(['budgets', 'set', ...subscription, '--amount', '12.345']), 1, REQUEST_ID);
    const removed = await run(['budgets', 'delete', ...subscription]);
    expect(removed.stdout).toMatch(/^Monthly budget:\s+none$/m);
  });

  it('lists the webhook endpoints with each address cut to its origin, as the portal shows them to a token', async () => {
    const before = await run(['webhooks', 'list']);
    expect(before.status, before.stderr).toBe(0);
    expect(before.stdout).toContain('No webhook endpoints.');
    await createWebhook(portal.base, await signIn(portal.base), 'https://93.184.215.14/services/T0/B0/a-secret-of-its-own');
    const listed = await run(['webhooks', 'list']);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^ID\s+URL\s+EVENTS\s+CREATED\s+LAST DELIVERY$/m);
    expect(listed.stdout).toContain('https://93.184.215.14/…');
    expect(listed.stdout).not.toContain('a-secret-of-its-own');
    const json = JSON.parse((await run(['webhooks', 'list', '--json'])).stdout) as { url: string; events: string[] }[];
    expect(json).toMatchObject([{ url: 'https://93.184.215.14/…', events: ['cluster.status_changed'] }]);
  });

  it('reports a READ token’s write, and KUMO_TOKEN over the saved token', async () => {
    const readOnly = await run(['clusters', 'stop', running.deployment_id], { env: { KUMO_TOKEN: readToken } });
    expectFailure(readOnly, 1, REQUEST_ID);
    expect(readOnly.stderr).toMatch(/read/i);
  });

  it('tells a portal out of reach (3) from a usage error (2), and shows help for every command', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    expectFailure(await run(['--api-url', closed, 'clusters', 'list']), 3, /cannot reach the portal at/);
    expectFailure(await run(['clusters', 'get', 'nope']), 2, /UUID/);
    expectFailure(await run(['clusters', 'fly']), 2, /unknown command/);
    const commands = [
      [],
      ['login'],
      ['logout'],
      ['subscriptions', 'list'],
      ...['list', 'get', 'start', 'stop', 'resize'].map((name) => ['clusters', name]),
      ['usage', 'export'],
      ['statements', 'get'],
      ...['get', 'set', 'delete'].map((name) => ['budgets', name]),
      ['webhooks', 'list'],
    ];
    for (const command of commands) {
      const help = await run([...command, '--help']);
      expect(help.status, command.join(' ')).toBe(0);
      expect(help.stdout).toContain(`Usage: kumo ${command.join(' ')}`.trimEnd());
    }
  });

  it('says when to try again once the token’s calls a minute are spent', async () => {
    const token = await createToken(portal.base, await signIn(portal.base), 'cli-busy', 'READ');
    for (let call = 0; ; call++) {
      const response = await fetch(`${portal.base}/api/subscription/list`, { headers: { authorization: `Bearer ${token}` } });
      if (response.status === 429) break;
      expect(call).toBeLessThan(500);
    }
    expectFailure(
      await run(['subscriptions', 'list'], { env: { KUMO_TOKEN: token } }),
      1,
      /\(request id [0-9a-f-]{36}\); try again in \d+ s$/m,
    );
  });

  it('signs out: the saved token is gone and a command asks to sign in (4)', async () => {
    const logout = await run(['logout']);
    expect(logout.status).toBe(0);
    expect(JSON.parse(readFileSync(join(home, 'config', 'kumo', 'config.json'), 'utf8'))).toEqual({ api_url: portal.base });
    expectFailure(await run(['clusters', 'list']), 4, /not signed in/);
  });
});

async function waitForStatus(id: string, status: string): Promise<void> {
  let last = '';
  for (let attempt = 0; attempt < 120; attempt++) {
    last = (JSON.parse((await run(['clusters', 'get', id, '--json'])).stdout) as Cluster).status;
    if (last === status) return;
    await sleep(500);
  }
  throw new Error(`cluster ${id} stayed ${last}, not ${status}`);
}
