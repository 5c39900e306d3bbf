import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { FREE_CREDITS_FORFEITED, amountToCents, subscriptionHasClustersMessage, type Subscription } from '@kumo/contract';
import { errorMessage } from '../../lib/api-error';
import { formatUsd } from '../../lib/format';
import { useDeleteSubscription } from './api/delete-subscription';
import { BlockingClustersAlert, clustersRefusingDeletion } from './blocking-clusters-alert';
import { useSubscriptions } from './api/subscription-list';
import { notifySuccess } from '../../components/notify';
import { ErrorAlert } from '../../components/error-alert';

interface DeleteSubscriptionDialogProps {
  subscription: Subscription | null;
  onClose: () => void;
}

/** Paid funds: the balance less unexpired free credits (only these can move to another subscription). */
const paidCentsOf = (subscription: Subscription) => amountToCents(subscription.total_amount) - amountToCents(subscription.credits);

/**
 * Asks before deleting. A subscription with clusters that are not deleted cannot be: the dialog names them, with
 * links, from the subscription's data or from the server's refusal. Paid funds are never lost: they move to another
 * subscription of the account chosen here, or, with none to receive them, deletion is refused. Free credits cannot
 * move and are forfeited.
 */
export function DeleteSubscriptionDialog({ subscription, onClose }: DeleteSubscriptionDialogProps) {
  const navigate = useNavigate();
  const remove = useDeleteSubscription();
  const list = useSubscriptions();
  const [target, setTarget] = useState<string | null>(null);
  const close = () => {
    remove.reset();
    setTarget(null);
    onClose();
  };
  const paidCents = subscription ? paidCentsOf(subscription) : 0;
  const targets = (list.data ?? []).filter((other) => other.subscription_id !== subscription?.subscription_id && other.status === 'ACTIVE');
  // The server's list wins: the clusters it found under the subscription's lock, which may be newer than ours.
  const refusedFor = clustersRefusingDeletion(remove.error);
  const blocking = refusedFor ?? (subscription?.clusters ?? []).map(({ deployment_id, cluster_name }) => ({ deployment_id, cluster_name }));
  const hasClusters = refusedFor !== undefined || blocking.length > 0;
  const needsTarget = paidCents > 0 && !hasClusters;
  const refused = hasClusters || (needsTarget && list.isSuccess && targets.length === 0);

  const confirm = () => {
    if (!subscription || (needsTarget && !target)) return;
    remove.mutate(
      { subscriptionId: subscription.subscription_id, transferTo: needsTarget ? (target ?? undefined) : undefined },
      {
        onSuccess: (result) => {
          notifySuccess(result.message);
          close();
          void navigate('/subscriptions', { replace: true });
        },
      },
    );
  };

  return (
    <Modal opened={!!subscription} onClose={close} title="Delete subscription" centered size="md">
      {subscription && (
        <Stack gap="md">
          <Text>
            Delete <strong>{subscription.subscription_name}</strong>? Its transactions stay on record.
          </Text>
          {hasClusters && (
            <BlockingClustersAlert
              subscriptionId={subscription.subscription_id}
              message={refusedFor ? errorMessage(remove.error) : subscriptionHasClustersMessage(blocking.map((c) => c.cluster_name))}
              clusters={blocking}
              onFollow={close}
            />
          )}
          {needsTarget && !refused && (
            <>
              <Text>
                It holds {formatUsd(paidCents / 100)} of paid funds. Choose the subscription they move to; they are never discarded.
              </Text>
              <Select
                label="Move paid funds to"
                placeholder="Choose a subscription"
                data={targets.map((other) => ({ value: other.subscription_id, label: other.subscription_name }))}
                value={target}
                onChange={setTarget}
                allowDeselect={false}
                required
              />
            </>
          )}
          {refused && !hasClusters && (
            <Alert color="yellow" variant="light" role="alert">
              It holds {formatUsd(paidCents / 100)} of paid funds and there is no other subscription to move them to. Create another
              subscription first; funds are never discarded.
            </Alert>
          )}
          {subscription.credits > 0 && <Text size="sm">{FREE_CREDITS_FORFEITED}</Text>}
          {remove.isError && !refusedFor && <ErrorAlert error={remove.error} />}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" onClick={confirm} loading={remove.isPending} disabled={refused || (needsTarget && !target)}>
              {needsTarget ? 'Move funds and delete' : 'Delete'}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
