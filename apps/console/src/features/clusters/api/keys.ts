/**
 * Query keys of the cluster screens. Everything about one cluster sits under `cluster(id)`, so a
 * change of state can refresh that cluster alone; the list is shared by the clusters page and home.
 */
export const clusterKeys = {
  all: ['clusters'] as const,
  view: () => [...clusterKeys.all, 'view'] as const,
  cluster: (deploymentId: string) => [...clusterKeys.all, 'cluster', deploymentId] as const,
  status: (deploymentId: string) => [...clusterKeys.cluster(deploymentId), 'status'] as const,
  details: (deploymentId: string, detail: 'DEPLOYMENT' | 'CURRENT') => [...clusterKeys.cluster(deploymentId), 'details', detail] as const,
  auditLogs: (deploymentId: string, startDate?: string) =>
    startDate
      ? ([...clusterKeys.cluster(deploymentId), 'audit-logs', startDate] as const)
      : ([...clusterKeys.cluster(deploymentId), 'audit-logs'] as const),
  // Under the audit log's key: the timeline is read from it, so whatever refreshes the log refreshes the timeline.
  timeline: (deploymentId: string) => [...clusterKeys.auditLogs(deploymentId), 'timeline'] as const,
  schedule: (deploymentId: string) => [...clusterKeys.cluster(deploymentId), 'schedule'] as const,
  autoStop: (deploymentId: string) => [...clusterKeys.cluster(deploymentId), 'auto-stop'] as const,
  managerAccess: (deploymentId: string) => [...clusterKeys.cluster(deploymentId), 'manager-access'] as const,
  queries: (deploymentId: string) => [...clusterKeys.cluster(deploymentId), 'queries'] as const,
  queriesPage: (deploymentId: string, page: number) => [...clusterKeys.queries(deploymentId), page] as const,
  networkAccess: (deploymentId: string) => [...clusterKeys.cluster(deploymentId), 'network-access'] as const,
  /** The caller's own address as the portal sees it ("This address only"). */
  clientAddress: () => [...clusterKeys.all, 'client-address'] as const,
  /** A month's analysis is appended by the cost panel. */
  creditAnalysis: (deploymentId: string) => [...clusterKeys.cluster(deploymentId), 'credit-analysis'] as const,
  consumptionOverview: (deploymentId: string, startDate: string) =>
    [...clusterKeys.cluster(deploymentId), 'consumption-overview', startDate] as const,
  regionMapping: (cloudProvider: string) => [...clusterKeys.all, 'region-mapping', cloudProvider] as const,
  cidr: (params: { deploymentRegion: string; backupRegion: string; enableDrFlag: boolean; cloudProvider: string }) =>
    [...clusterKeys.all, 'cidr', params] as const,
  versions: () => [...clusterKeys.all, 'kumo-versions'] as const,
  sizes: () => [...clusterKeys.all, 'sizes'] as const,
  resizePreview: (deploymentId: string, size: string, queryEngines: number) =>
    [...clusterKeys.cluster(deploymentId), 'resize-preview', size, queryEngines] as const,
  pricePreview: (subscriptionId: string, size: string, queryEngines: number) =>
    [...clusterKeys.all, 'price-preview', subscriptionId, size, queryEngines] as const,
  /** The subscription's budget, as the Start dialog reads it to know whether the hard cap lets a cluster run. */
  budget: (subscriptionId: string) => [...clusterKeys.all, 'budget', subscriptionId] as const,
  operationStatus: (operationId: string) => [...clusterKeys.all, 'operation', operationId] as const,
};
