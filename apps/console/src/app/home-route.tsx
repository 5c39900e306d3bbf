import { HomeClustersCard } from '../features/clusters/home-clusters-card';
import { HomePage } from '../features/home/home-page';

/** Home with the clusters table the clusters feature provides (features do not import one another). */
export function HomeRoute() {
  return <HomePage clustersCard={<HomeClustersCard />} />;
}
