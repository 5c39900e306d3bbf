/** `kumo clusters list|get|start|stop|resize`. */
import { Option, type Command } from 'commander';
import { answer, type Schemas } from '../api.js';
import type { Context } from '../context.js';
import { dateTime, money, text } from '../output/format.js';
import { keyValues, table } from '../output/table.js';
import { idempotencyKey, integerBetween, uuid, withJson, type JsonOption } from './shared.js';

type Cluster = Schemas['Cluster'];
const SIZES = ['XS', 'S', 'M', 'L', 'XL'] as const;

const shape = (cluster: Pick<Cluster, 'size' | 'query_engines'>) => `${cluster.size} × ${cluster.query_engines}`;

export function clustersTable(view: Schemas['ClusterView']): string {
  const rows = view.flatMap((subscription) => subscription.clusters);
  return table(
    rows,
    [
      { header: 'ID', value: (row) => row.deployment_id },
      { header: 'NAME', value: (row) => row.cluster_name },
      { header: 'STATUS', value: (row) => (row.resizing_to ? `${row.status} (resizing)` : row.status) },
      { header: 'SIZE', value: shape },
      { header: 'REGION', value: (row) => row.region },
      { header: 'SUBSCRIPTION', value: (row) => row.subscription_name },
    ],
    'No clusters.',
  );
}

export function clusterDetails(cluster: Schemas['ClusterDetails']): string {
  const resizing = cluster.resizing_to ? `${shape(cluster.resizing_to)} in progress` : '-';
  return keyValues([
    ['Name', cluster.cluster_name],
    ['ID', cluster.deployment_id],
    ['Cluster ID', cluster.cluster_id],
    ['Status', cluster.status],
    ['Size', `${shape(cluster)} (capacity ${cluster.cluster_capacity})`],
    ['Resizing to', resizing],
    ['Subscription', `${cluster.subscription_name} (${cluster.subscription_id})`],
    ['Balance', money(cluster.subscription_balance)],
    ['Cloud', `${cluster.cloud_provider} ${cluster.region}`],
    ['Backup region', text(cluster.backup_region)],
    ['Version', cluster.kumo_version],
    ['SQL endpoint', text(cluster.sql_endpoint)],
    ['SQL user', text(cluster.sql_user)],
    ['Created', `${dateTime(cluster.created_at)} by ${cluster.deployed_by}`],
    ['Deployed', dateTime(cluster.deployed_on)],
    ['Status since', dateTime(cluster.status_update_date)],
  ]);
}

const actionResult = (result: { deployment_id: string; status: string; message: string }) =>
  keyValues([
    ['Cluster', result.deployment_id],
    ['Status', result.status],
    ['Message', result.message],
  ]);

interface ResizeOptions extends JsonOption {
  size: (typeof SIZES)[number];
  engines: number;
  idempotencyKey?: string;
}

export function registerClusters(program: Command, context: Context): void {
  const clusters = program.command('clusters').description("The account's clusters");
  const id = uuid('the cluster id (its deployment id, as `kumo clusters list` shows)');

  withJson(clusters.command('list'))
    .description('List the clusters, of every subscription or of one')
    .option('--subscription <id>', 'only the clusters of this subscription', uuid('the subscription id'))
    .action(async (options: JsonOption & { subscription?: string }) => {
      const query = options.subscription ? { subscriptionId: options.subscription } : {};
      const view = await answer(context.client().GET('/api/cluster/view', { params: { query } }));
      context.print(options.json === true, view, clustersTable);
    });

  withJson(clusters.command('get'))
    .description("Show a cluster's details")
    .argument('<id>', "the cluster's id", id)
    .action(async (deploymentId: string, options: JsonOption) => {
      const params = { path: { deploymentId } };
      const details = await answer(context.client().GET('/api/cluster/details/{deploymentId}', { params }));
      context.print(options.json === true, details, clusterDetails);
    });

  withJson(clusters.command('start'))
    .description('Start a stopped cluster (its hours are billed again once it is online)')
    .argument('<id>', "the cluster's id", id)
    .action(async (deploymentId: string, options: JsonOption) => {
      const params = { path: { deploymentId } };
      const result = await answer(context.client().GET('/api/cluster/start/{deploymentId}', { params }));
      context.print(options.json === true, result, actionResult);
    });

  withJson(clusters.command('stop'))
    .description('Stop an online cluster (its query engines stop being billed; storage still is)')
    .argument('<id>', "the cluster's id", id)
    .action(async (deploymentId: string, options: JsonOption) => {
      const params = { path: { deploymentId } };
      const result = await answer(context.client().GET('/api/cluster/stop/{deploymentId}', { params }));
      context.print(options.json === true, result, actionResult);
    });

  withJson(clusters.command('resize'))
    .description('Change a cluster’s size and number of query engines')
    .argument('<id>', "the cluster's id", id)
    .addOption(new Option('--size <size>', 'the new size').choices(SIZES).makeOptionMandatory())
    .requiredOption('--engines <count>', 'the number of query engines, 1 to 5', integerBetween(1, 5))
    .option('--idempotency-key <key>', 'send this key to retry a resize safely (a new one is made when left out)')
    .addHelpText('after', '\nExample:\n  kumo clusters resize 0996b658-9d4a-4a38-a50c-220508673754 --size S --engines 2')
    .action(async (deploymentId: string, options: ResizeOptions) => {
      const result = await answer(
        context.client().POST('/api/cluster/resize/{deploymentId}', {
          params: { path: { deploymentId }, header: { 'Idempotency-Key': idempotencyKey(options.idempotencyKey) } },
          body: { size: options.size, query_engines: options.engines },
        }),
      );
      context.print(options.json === true, result, (value) =>
        keyValues([
          ['Cluster', value.deployment_id],
          ['Status', value.status],
          ['Size', shape(value)],
          ['Resizing', value.resizing ? 'yes' : 'no'],
          ['Message', value.message],
        ]),
      );
    });
}
