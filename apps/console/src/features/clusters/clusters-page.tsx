import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { Grid } from '@mantine/core';
import { ClustersHeader } from '../../components/page-headers';
import { useActiveLink, useActiveName } from '../../lib/active-names';
import { clusterViewQuery, useClusterView } from './api/cluster-view';
import type { FirstRead } from '../../lib/api/first-reads';
import type { ActionCluster } from './cluster-actions';
import { ClusterDetails } from './cluster-details';
import { ClusterList, clusterPath } from './cluster-list';
import { lazyChunk } from '../../lib/load-chunk';
import { LoadedWhenOpened } from '../../components/loaded-when-opened';

/** The create form (its fields, checks and price preview) loads when it is first opened, not with the page. */
const CreateClusterDialog = lazyChunk(() => import('./create-cluster-dialog').then((m) => ({ default: m.CreateClusterDialog })));
// Loaded when first asked for: its OTP form's validation brings zod and its schemas, which the page does not need to show.
const DeleteClusterDialog = lazyChunk(() => import('./delete-cluster-dialog').then((m) => ({ default: m.DeleteClusterDialog })));

/** Navigation state that opens the create dialog on arrival (home's '+ New Cluster'). */
export interface OpenCreateClusterState {
  openCreateCluster?: boolean;
}

/**
 * /clusters, /clusters/{subscriptionId} and /clusters/{subscriptionId}/{deploymentId}: the clusters
 * grouped by subscription on the left, the selected one on the right. The route follows the
 * selection (spec section 2): with no clusters it is /clusters; an unknown or missing id goes to the
 * first cluster (of the subscription in the path, if it has one).
 */
/** What the page is first shown with (app/routes.tsx). */
export const clustersFirstReads = (): FirstRead[] => [clusterViewQuery];

export function ClustersPage() {
  const { subscriptionId, deploymentId } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const view = useClusterView();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<ActionCluster | null>(null);

  const groups = view.data ?? [];
  const clusters = groups.flatMap((group) => group.clusters);
  const selected = clusters.find((cluster) => cluster.deployment_id === deploymentId && cluster.subscription_id === subscriptionId);
  useActiveName('cluster', selected?.cluster_name);
  useActiveName('subscription', selected?.subscription_name);
  useActiveLink('subscription', selected && `/subscriptions/${selected.subscription_id}`);

  let redirect: string | null = null;
  if (view.isSuccess && !selected) {
    const first = clusters.find((cluster) => cluster.subscription_id === subscriptionId) ?? clusters[0];
    if (first) redirect = clusterPath(first.subscription_id, first.deployment_id);
    else if (location.pathname !== '/clusters') redirect = '/clusters';
  }

  // Opening the create dialog from elsewhere: once the route has settled, the dialog opens and the state
  // is cleared, so going back or reloading does not open it again.
  const navigationState = location.state as OpenCreateClusterState | null;
  const wantsCreate = !!navigationState?.openCreateCluster && !redirect;
  if (wantsCreate && !creating) setCreating(true);
  useEffect(() => {
    if (wantsCreate) void navigate(location.pathname, { replace: true, state: null });
  }, [wantsCreate, navigate, location.pathname]);

  // The redirect renders beside the page, not instead of it: the dialogs stay open while the route moves
  // (a deleted cluster leaves the list while its deletion message is still on screen).
  return (
    <>
      {redirect && <Navigate to={redirect} replace state={navigationState} />}
      <ClustersHeader />
      <Grid gap="lg" columns={24}>
        <Grid.Col span={{ base: 24, lg: 7 }}>
          <ClusterList
            groups={groups}
            loading={view.isPending}
            error={view.error}
            selectedId={selected?.deployment_id}
            onNew={() => setCreating(true)}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 24, lg: 17 }}>
          <ClusterDetails cluster={selected} loading={view.isPending || !!redirect} onDelete={setDeleting} />
        </Grid.Col>
      </Grid>
      <LoadedWhenOpened opened={creating}>
        <CreateClusterDialog
          opened={creating}
          subscriptionId={selected?.subscription_id ?? subscriptionId}
          onClose={() => setCreating(false)}
          onCreated={(created) => void navigate(clusterPath(created.subscription_id, created.deployment_id))}
        />
      </LoadedWhenOpened>
      <LoadedWhenOpened opened={!!deleting}>
        <DeleteClusterDialog cluster={deleting} onClose={() => setDeleting(null)} />
      </LoadedWhenOpened>
    </>
  );
}
