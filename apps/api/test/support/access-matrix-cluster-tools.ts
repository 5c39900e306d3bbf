import { get, post, send } from './harness.js';
import { CUSTOMER_AREA, OWNERS_ACCOUNT, OWNERS_BUSY_CLUSTER, type EndpointCase } from './access-matrix.js';

/**
 * The rows of a cluster's own tools: its SQL console and history, its password, network access, idle auto-stop, and
 * its sizes, prices and resizing.
 */
export const CLUSTER_TOOL_ENDPOINTS: EndpointCase[] = [
  {
    route: 'GET /api/cluster/auto-stop/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/auto-stop/${f.clusterId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/cluster/queries/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/queries/${f.clusterId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    // Still deploying: not online, so no query runs (409), and its engine holds no password yet (409).
    route: 'POST /api/cluster/query/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => post(ctx, `/api/cluster/query/${f.clusterId}`, { query: 'select 1' }, t?.jwt),
    expected: OWNERS_BUSY_CLUSTER,
  },
  {
    route: 'POST /api/cluster/reset-password/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => post(ctx, `/api/cluster/reset-password/${f.clusterId}`, { password: 'Matrix#Secret-1' }, t?.jwt),
    expected: OWNERS_BUSY_CLUSTER,
  },
  {
    route: 'GET /api/cluster/network-access/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/network-access/${f.clusterId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'PUT /api/cluster/network-access/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => send(ctx, 'PUT', `/api/cluster/network-access/${f.clusterId}`, { allow_anywhere: true, allowed: [] }, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/user/client-address',
    call: (ctx, t) => get(ctx, '/api/user/client-address', t?.jwt),
    expected: CUSTOMER_AREA,
  },
  {
    route: 'PUT /api/cluster/auto-stop/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => send(ctx, 'PUT', `/api/cluster/auto-stop/${f.clusterId}`, { idle_minutes: 30 }, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/cluster/sizes',
    call: (ctx, t) => get(ctx, '/api/cluster/sizes', t?.jwt),
    expected: CUSTOMER_AREA,
  },
  {
    route: 'GET /api/cluster/price-preview',
    target: "the owner's subscription",
    call: (ctx, t, f) => get(ctx, `/api/cluster/price-preview?subscription_id=${f.subscriptionId}&size=S&query_engines=2`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/cluster/resize-preview/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/resize-preview/${f.clusterId}?size=L&query_engines=3`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    // Still deploying: a resize waits for it to be online or offline (409).
    route: 'POST /api/cluster/resize/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => post(ctx, `/api/cluster/resize/${f.clusterId}`, { size: 'L', query_engines: 3 }, t?.jwt),
    expected: OWNERS_BUSY_CLUSTER,
  },
];
