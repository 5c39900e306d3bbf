import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { BUDGET_MESSAGES, type Subscription } from '@kumo/contract';
import { ErrorAlert } from '../../components/error-alert';
import { notifySuccess } from '../../components/notify';
import { useRemoveBudget } from './api/budget';

/** Asks before removing the budget: its alerts stop and, with the hard cap, clusters may start again. */
export function RemoveBudgetDialog({
  subscription,
  opened,
  onClose,
}: {
  subscription: Subscription;
  opened: boolean;
  onClose: () => void;
}) {
  const remove = useRemoveBudget();
  const close = () => {
    remove.reset();
    onClose();
  };
  const confirm = () =>
    remove.mutate(
      { subscriptionId: subscription.subscription_id },
      {
        onSuccess: () => {
          notifySuccess(BUDGET_MESSAGES.budgetDeleted);
          close();
        },
      },
    );

  return (
    <Modal opened={opened} onClose={close} title="Remove budget" centered size="md">
      <Stack gap="md">
        <Text>
          Remove the monthly budget of <strong>{subscription.subscription_name}</strong>? No more budget alerts are sent, and a hard cap no
          longer stops its clusters.
        </Text>
        {remove.isError && <ErrorAlert error={remove.error} />}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button color="red" onClick={confirm} loading={remove.isPending}>
            Remove
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
