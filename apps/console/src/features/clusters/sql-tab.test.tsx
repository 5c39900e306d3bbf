import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Cluster, ClusterQueriesResponse, SqlResult } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { cluster, detailsOf, statusOf, view } from '../../../test/clusters';
import { renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { saveTokens, saveUser } from '../../lib/session';
import { ClustersPage } from './clusters-page';
import { toCsv } from './sql-results';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

const RESULT: SqlResult = {
  columns: [
    { name: 'region_name', type: 'VARCHAR' },
    { name: 'orders', type: 'BIGINT' },
  ],
  rows: [
    ['Europe', '20000'],
    ['Asia, Pacific', null],
  ],
  row_count: 2,
  truncated: false,
  elapsed_ms: 12,
};

const history = (c: Cluster, entries: number): ClusterQueriesResponse => ({
  content: Array.from({ length: entries }, (_, index) => ({
    query_id: `00000000-0000-4000-8000-00000000000${index}`,
    started_at: '2026-03-10T09:00:00.000Z',
    duration_ms: 12,
    row_count: 2,
    status: 'OK' as const,
    source: 'CONSOLE' as const,
    user: 'olga@example.com',
    client_address: '203.0.113.7',
    user_agent: 'Firefox',
    query: `select ${index} from samples.orders`,
    error: null,
  })),
  totalPages: entries > 0 ? 1 : 0,
});

function renderSql(c: Cluster, handlers: Parameters<typeof mockApi>[0]) {
  saveTokens('owner-jwt', 'owner-refresh');
  saveUser(userDetail());
  const api = mockApi({
    'GET /api/cluster/view': () => jsonResponse(200, view(c)),
    'GET /api/subscription/list': () => jsonResponse(200, []),
    [`GET /api/cluster/deployment-details/status/${c.deployment_id}`]: () => jsonResponse(200, statusOf(c)),
    [`GET /api/cluster/details/${c.deployment_id}`]: () => jsonResponse(200, detailsOf(c, 'CURRENT')),
    [`GET /api/cluster/timeline/${c.deployment_id}`]: () =>
      jsonResponse(200, { deployment_id: c.deployment_id, days: [], next_before: null }),
    [`GET /api/cluster/schedule/${c.deployment_id}`]: () =>
      jsonResponse(200, {
        deployment_id: c.deployment_id,
        enabled: false,
        time_zone: 'UTC',
        rules: [],
        next_run_at: null,
        next_action: null,
      }),
    ...handlers,
  });
  renderRoutes(
    [{ path: '/clusters/:subscriptionId/:deploymentId', element: <ClustersPage /> }],
    `/clusters/${c.subscription_id}/${c.deployment_id}`,
  );
  return api;
}

async function openSql(c: Cluster) {
  await screen.findByRole('heading', { level: 2, name: c.cluster_name });
  await userEvent.click(screen.getByRole('tab', { name: 'SQL' }));
  return screen.findByRole('textbox', { name: 'SQL query' });
}

describe('the SQL tab of a cluster', () => {
  it('runs the query with Ctrl+Enter and shows the rows with their column types, the history and how to connect', async () => {
    const c = cluster({ cluster_name: 'Alpha', status: 'ONLINE' });
    let ran = false;
    const api = renderSql(c, {
      [`POST /api/cluster/query/${c.deployment_id}`]: () => {
        ran = true;
        return jsonResponse(200, RESULT);
      },
      [`GET /api/cluster/queries/${c.deployment_id}`]: () => jsonResponse(200, history(c, ran ? 1 : 0)),
    });
    const editor = await openSql(c);
    await userEvent.clear(editor);
    await userEvent.type(editor, 'select * from samples.regions{Control>}{Enter}{/Control}');
    const table = await screen.findByRole('table', { name: 'Query result' });
    expect(api.bodiesOf(`POST /api/cluster/query/${c.deployment_id}`)).toEqual([{ query: 'select * from samples.regions' }]);
    expect(within(table).getByRole('columnheader', { name: 'orders BIGINT' })).toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: 'NULL' })).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Query history' })).toHaveTextContent('select 0 from samples.orders');
    expect(screen.getByText(`http://localhost/sim/kumo/${c.stack_name}/sql`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy the curl example' })).toBeInTheDocument();
  });

  it("shows the engine's error under the editor", async () => {
    const c = cluster({ cluster_name: 'Beta', status: 'ONLINE' });
    renderSql(c, {
      [`POST /api/cluster/query/${c.deployment_id}`]: () =>
        errorResponse(400, 'QUERY_FAILED', 'Catalog Error: Table with name nowhere does not exist!'),
      [`GET /api/cluster/queries/${c.deployment_id}`]: () => jsonResponse(200, history(c, 0)),
    });
    await openSql(c);
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Table with name nowhere does not exist');
  });

  it('writes the CSV with quoted fields and empty NULLs', () => {
    expect(toCsv(RESULT)).toBe('region_name,orders\r\nEurope,20000\r\n"Asia, Pacific",\r\n');
  });
});
