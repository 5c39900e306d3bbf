import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { Cluster } from '@kumo/contract';

interface StopClusterDialogProps {
  cluster: Pick<Cluster, 'cluster_name'> | null;
  stopping: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Stopping halts every service: the dialog says what that means before it happens (spec sections 4 and 9). */
export function StopClusterDialog({ cluster, stopping, onConfirm, onClose }: StopClusterDialogProps) {
  return (
    <Modal opened={!!cluster} onClose={onClose} title="Stop cluster" centered size="md">
      {cluster && (
        <Stack gap="md">
          <Text>
            Stop <strong>{cluster.cluster_name}</strong>? Stopping takes up to 5 minutes and halts all its services: the Web Portal and Kumo
            Manager are unavailable until you start it again.
          </Text>
          <Text fz="sm" c="dimmed">
            A stopped cluster incurs no compute charges; storage is still charged.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button color="red" onClick={onConfirm} loading={stopping}>
              Stop
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
