import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { Cluster } from '@kumo/contract';
import { CostPreview } from './cost-preview';

interface StartClusterDialogProps {
  cluster: Pick<Cluster, 'cluster_name' | 'subscription_id' | 'backup_region'> | null;
  starting: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Starting spends money again: the dialog says what it will cost per hour before it happens. */
export function StartClusterDialog({ cluster, starting, onConfirm, onClose }: StartClusterDialogProps) {
  return (
    <Modal opened={!!cluster} onClose={onClose} title="Start cluster" centered size="md">
      {cluster && (
        <Stack gap="md">
          <Text>
            Start <strong>{cluster.cluster_name}</strong>? Compute charges resume once its nodes run.
          </Text>
          <CostPreview subscriptionId={cluster.subscription_id} dr={Boolean(cluster.backup_region)} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button color="teal" onClick={onConfirm} loading={starting} data-autofocus>
              Start
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
