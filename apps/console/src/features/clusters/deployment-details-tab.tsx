import { SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { CLOUD_PROVIDER_LABELS, type Cluster, type ClusterStatus, type DeploymentStatus, type StackStatus } from '@kumo/contract';
import { DetailField } from '../../components/detail-field';
import { useClusterDetails } from './api/cluster-details';
import { DeploymentSteps } from './deployment-steps';
import { DetailsTable } from './details-table';

const CONFIGURATION_COLUMNS = ['Service', 'Nodes', 'Instance type', 'Cores'];

interface DeploymentDetailsTabProps {
  cluster: Cluster;
  status: ClusterStatus;
  stackStatus: StackStatus | null;
  deploymentStatus: DeploymentStatus | null;
}

/** The deployment's steps, the settings it was made with (spec section 2) and its node configuration. */
export function DeploymentDetailsTab({ cluster, status, stackStatus, deploymentStatus }: DeploymentDetailsTabProps) {
  // Read again when the deployment settles, so the configuration matches what was deployed.
  const details = useClusterDetails(cluster.deployment_id, 'DEPLOYMENT');
  const shown = details.data ?? cluster;
  const fields: [string, string][] = [
    ['Cluster Name', shown.cluster_name],
    ['Cluster ID', shown.cluster_id],
    ['Description', shown.cluster_description || '—'],
    ['Subscription', shown.subscription_name],
    ['Cloud Provider', CLOUD_PROVIDER_LABELS[shown.cloud_provider]],
    ['Region', shown.region],
    ['CIDR', shown.cidr],
    ['Version', shown.kumo_version],
    ['Backup Region', shown.backup_region ?? 'Disaster recovery off'],
    ['Deployed By', shown.deployed_by],
    ['Email', shown.email_id],
  ];

  return (
    <Stack gap="xl">
      <DeploymentSteps clusterStatus={status} stackStatus={stackStatus} deploymentStatus={deploymentStatus} />
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
        {fields.map(([label, value]) => (
          <DetailField key={label} label={label}>
            <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </DetailField>
        ))}
      </SimpleGrid>
      <DetailsTable
        title="Configuration"
        columns={CONFIGURATION_COLUMNS}
        minWidth={480}
        query={details}
        rows={(data) =>
          data.cluster_configurations.map((row) => (
            <Table.Tr key={row.service_name}>
              <Table.Td data-label="Service">{row.service_name}</Table.Td>
              <Table.Td data-label="Nodes">{row.node_count}</Table.Td>
              <Table.Td data-label="Instance type" ff="monospace">
                {row.instance_type}
              </Table.Td>
              <Table.Td data-label="Cores">{row.core}</Table.Td>
            </Table.Tr>
          ))
        }
      />
    </Stack>
  );
}
