import { SimpleGrid, Text } from '@mantine/core';
import { CONSUMPTION_EXPORT_PATHS, type Cluster } from '@kumo/contract';
import { CreditAnalysisPanel } from '../../components/cost/credit-analysis-panel';
import { costCell } from '../../components/cost/cost-format';
import { DetailField } from '../../components/detail-field';
import { formatUsd } from '../../lib/format';
import { fetchClusterCreditAnalysis, useClusterCostOverview } from './api/cost';
import { clusterKeys } from './api/keys';

/** The cluster's cost by month: its actual cost and forecast, the cost and consumption tables and their CSVs. */
export function CostAnalysisTab({ cluster }: { cluster: Pick<Cluster, 'deployment_id' | 'cluster_name'> }) {
  return (
    <CreditAnalysisPanel
      queryKey={clusterKeys.creditAnalysis(cluster.deployment_id)}
      fetchAnalysis={(startDate, signal) => fetchClusterCreditAnalysis(cluster.deployment_id, startDate, signal)}
      exportPath={CONSUMPTION_EXPORT_PATHS.cluster(cluster.deployment_id)}
      subject={cluster.cluster_name}
      summary={(startDate) => <ClusterCostSummary deploymentId={cluster.deployment_id} startDate={startDate} />}
    />
  );
}

/** Actual cost and forecast of the month ('--' when zero, spec section 5) and what the cluster costs per hour now. */
function ClusterCostSummary({ deploymentId, startDate }: { deploymentId: string; startDate: string }) {
  const overview = useClusterCostOverview(deploymentId, startDate);
  const data = overview.data;
  if (!data) return null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
      <DetailField label="Actual cost">
        <Text fz="lg" fw={600}>
          {costCell(data.consumed_amount)}
        </Text>
      </DetailField>
      <DetailField label="Forecast for the month">
        <Text fz="lg" fw={600}>
          {costCell(data.forecasted_amount)}
        </Text>
      </DetailField>
      <DetailField label="Cost per hour now">
        <Text fz="lg" fw={600}>
          {formatUsd(data.hourly_rate)}
        </Text>
      </DetailField>
    </SimpleGrid>
  );
}
