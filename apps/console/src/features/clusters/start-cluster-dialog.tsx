import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { budgetExceededMessage, type Cluster } from '@kumo/contract';
import { useStartBudget } from './api/budget';
import { useHourlyRatePreview } from './api/hourly-rate';
import { CostPreview } from './cost-preview';

interface StartClusterDialogProps {
  cluster: Pick<Cluster, 'cluster_name' | 'subscription_id' | 'subscription_name' | 'backup_region'> | null;
  starting: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * Whether the budget's hard cap refuses the start, as the API would: the cluster's running hour costs more than the
 * budget leaves for the next hour. Unknown (false) while either figure is loading or cannot be read.
 */
function useCapRefusesStart(cluster: StartClusterDialogProps['cluster']): boolean {
  const budget = useStartBudget(cluster?.subscription_id);
  const preview = useHourlyRatePreview(cluster?.subscription_id, Boolean(cluster?.backup_region));
  const headroom = budget.data?.stop_clusters_at_limit ? budget.data.start_headroom_per_hour : null;
  return headroom !== null && preview.data !== undefined && preview.data.hourly_rate > headroom;
}

/** Starting spends money again: the dialog says what it will cost per hour, and whether the budget allows it, before it happens. */
export function StartClusterDialog({ cluster, starting, onConfirm, onClose }: StartClusterDialogProps) {
  const refused = useCapRefusesStart(cluster);
  return (
    <Modal opened={!!cluster} onClose={onClose} title="Start cluster" centered size="md">
      {cluster && (
        <Stack gap="md">
          <Text>
            Start <strong>{cluster.cluster_name}</strong>? Compute charges resume once its nodes run.
          </Text>
          <CostPreview subscriptionId={cluster.subscription_id} dr={Boolean(cluster.backup_region)} />
          {refused && (
            <Alert color="red" data-testid="budget-exceeded">
              {budgetExceededMessage(cluster.subscription_name)}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button color="teal" onClick={onConfirm} loading={starting} disabled={refused} data-autofocus>
              Start
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
