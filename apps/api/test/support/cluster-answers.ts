/** A cluster as the cluster list answers it, for the tests of how answers are checked and sent. */

export const ANSWER_SUBSCRIPTION_ID = '1b7c5e84-1234-4b1c-9d7e-0123456789ab';

/** One listed cluster, named `name`, every field as the contract has it. */
export const listedClusterAnswer = (name = 'Bench_1') => ({
  deployment_id: '0b7c5e84-1234-4b1c-9d7e-0123456789ab',
  cluster_id: 'KC-0B7C5E84',
  cluster_name: name,
  cluster_description: '',
  status: 'ONLINE',
  cluster_status: 'ONLINE',
  status_update_date: '2026-03-01T10:00:00.000Z',
  cluster_capacity: 3,
  region: 'us-east-1',
  deployment_region: 'us-east-1',
  cloud_provider: 'AWS',
  backup_region: null,
  cidr: '10.0.0.0/16',
  kumo_version: '2026.10.1',
  stack_name: 'kumo-abc',
  deployed_by: 'Bench Owner',
  email_id: 'bench@example.com',
  subscription_id: ANSWER_SUBSCRIPTION_ID,
  subscription_name: 'Bench',
  subscription_balance: 100.25,
  kumo_manager_url: 'https://km.example/?sso=a.b',
  kumo_url: null,
  cluster_stack_status: 'CREATE_COMPLETE',
  kumo_cluster_deployment_status: 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE',
  created_at: '2026-03-01T09:00:00.000Z',
  deployed_on: null,
  size: 'S',
  query_engines: 2,
  resizing_to: null,
});

/** The cluster list's answer: one subscription with these clusters. */
export const clusterViewAnswer = (clusters: unknown[]) => [
  { subscription_id: ANSWER_SUBSCRIPTION_ID, subscription_name: 'Bench', clusters },
];
