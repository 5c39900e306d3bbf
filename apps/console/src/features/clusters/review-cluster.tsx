import { Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { CLOUD_PROVIDER_LABELS, shapeLabel, type CreateClusterForm } from '@kumo/contract';
import { networkAccessSummary } from './network-access-summary';
import { DetailField } from '../../components/detail-field';
import { CostPreview } from './cost-preview';
import { ShapePrice } from './create-cluster-size';

interface ReviewClusterProps {
  form: CreateClusterForm;
  subscriptionName: string;
  versionLabel: string | undefined;
  deploying: boolean;
  onBack: () => void;
  onConfirm: () => void;
}

/** What will be deployed, for a last look before Confirm (the password is never shown back). */
export function ReviewCluster({ form, subscriptionName, versionLabel, deploying, onBack, onConfirm }: ReviewClusterProps) {
  const rows: [string, string][] = [
    ['Subscription', subscriptionName],
    ['Cluster Name', form.cluster_name.trim()],
    ['Description', form.description.trim() || '—'],
    ['Cloud Provider', CLOUD_PROVIDER_LABELS[form.cloud_provider]],
    ['Region', form.region],
    ['Size', shapeLabel(form.size, form.query_engines)],
    ['Disaster Recovery', form.enableDrFlag ? `On, backed up to ${form.backupRegion ?? ''}` : 'Off'],
    ['CIDR', form.cidr],
    ['Kumo Version', versionLabel ? `${form.kumo_version} — ${versionLabel}` : form.kumo_version],
    ['Network Access', networkAccessSummary(form.network_access)],
  ];
  return (
    <Stack gap="lg">
      <Text fz="sm" c="dimmed">
        Deployment takes about an hour. Charges start once the cluster is online.
      </Text>
      {/* The shape's price with its backup region, beside the shape's own price line. */}
      <CostPreview
        subscriptionId={form.selectedSubscription}
        dr={form.enableDrFlag}
        shape={{ size: form.size, queryEngines: form.query_engines }}
      />
      <ShapePrice subscriptionId={form.selectedSubscription} size={form.size} queryEngines={form.query_engines} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {rows.map(([label, value]) => (
          <DetailField key={label} label={label}>
            <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </DetailField>
        ))}
      </SimpleGrid>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onBack} disabled={deploying}>
          Back
        </Button>
        <Button onClick={onConfirm} loading={deploying} data-autofocus>
          Confirm
        </Button>
      </Group>
    </Stack>
  );
}
