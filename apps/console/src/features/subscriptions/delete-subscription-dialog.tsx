import { useNavigate } from 'react-router';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MESSAGES, type Subscription } from '@kumo/contract';
import { errorMessage } from '../../lib/api-error';
import { formatUsd } from '../../lib/format';
import { useDeleteSubscription } from './api/delete-subscription';

interface DeleteSubscriptionDialogProps {
  subscription: Subscription | null;
  onClose: () => void;
}

/** Asks before deleting: the balance goes with the subscription; a subscription with clusters is refused by the server. */
export function DeleteSubscriptionDialog({ subscription, onClose }: DeleteSubscriptionDialogProps) {
  const navigate = useNavigate();
  const remove = useDeleteSubscription();
  const close = () => {
    remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!subscription) return;
    remove.mutate(subscription.subscription_id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: MESSAGES.subscriptionDeleted });
        close();
        void navigate('/subscriptions', { replace: true });
      },
    });
  };

  return (
    <Modal opened={!!subscription} onClose={close} title="Delete subscription" centered size="md">
      {subscription && (
        <Stack gap="md">
          <Text>
            Delete <strong>{subscription.subscription_name}</strong>? Its balance of {formatUsd(subscription.total_amount)} can no longer be
            used; its transactions stay on record.
          </Text>
          {remove.isError && (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(remove.error)}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" onClick={confirm} loading={remove.isPending}>
              Delete
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
