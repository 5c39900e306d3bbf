import { clusterViewQuery } from '../features/clusters/api/cluster-view';
import { HomeClustersCard } from '../features/clusters/home-clusters-card';
import { runwaysQuery } from '../features/home/api/runways';
import type { FirstRead } from '../lib/api/first-reads';
import { subscriptionListQuery } from '../lib/api/subscription-list';
import { HomePage } from '../features/home/home-page';

/** What home is first shown with (app/routes.tsx). */
export const homeFirstReads = (): FirstRead[] => [subscriptionListQuery, clusterViewQuery, runwaysQuery];

/** Home with the clusters table the clusters feature provides (features do not import one another). */
export function HomeRoute() {
  return <HomePage clustersCard={<HomeClustersCard />} />;
}
