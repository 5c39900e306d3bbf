import type { ClusterSsoResponse, ManagerTicketPage } from '@kumo/contract';
import { api } from '../../../lib/api-client';

/**
 * The cluster's Kumo Manager or Web Portal address with a one-minute ticket of the signed-in person's own (naming
 * them and their level): asked for at the moment the page is opened, never kept.
 */
export function fetchClusterSso(deploymentId: string, page: ManagerTicketPage): Promise<ClusterSsoResponse> {
  return api.get(`/api/cluster/kumo/sso/${encodeURIComponent(deploymentId)}`, { query: { page } });
}
