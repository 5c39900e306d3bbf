import { useState } from 'react';
import { Button, Group } from '@mantine/core';
import { AUTO_TOP_UP_MESSAGES, type AutoTopUp, type Subscription } from '@kumo/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { LoadedWhenOpened } from '../../components/loaded-when-opened';
import { useRemoveCard, useStartCardSetup } from './api/auto-top-up';
import { leaveForCheckout } from './leave-for-checkout';

interface CardActionsProps {
  subscription: Subscription;
  autoTopUp: AutoTopUp;
  onEdit: () => void;
}

/** Saving, replacing or removing the card (on the provider's page) and opening the settings. */
export function CardActions({ subscription, autoTopUp, onEdit }: CardActionsProps) {
  const setup = useStartCardSetup();
  const [removing, setRemoving] = useState(false);
  const hasCard = autoTopUp.payment_method !== null;
  const saveCard = () =>
    setup.mutate({ subscriptionId: subscription.subscription_id }, { onSuccess: ({ redirect_url }) => leaveForCheckout(redirect_url) });

  return (
    <>
      {setup.isError && <ErrorAlert error={setup.error} />}
      <Group gap="xs" justify="flex-end">
        <Button size="xs" variant={hasCard ? 'default' : 'filled'} onClick={saveCard} loading={setup.isPending || setup.isSuccess}>
          {hasCard ? 'Replace card' : 'Save a card'}
        </Button>
        {hasCard && (
          <Button size="xs" variant="subtle" color="red" onClick={() => setRemoving(true)}>
            Remove card
          </Button>
        )}
        <Button size="xs" variant="default" onClick={onEdit}>
          Edit settings
        </Button>
      </Group>
      <LoadedWhenOpened opened={removing}>
        <RemoveCardDialog subscription={subscription} opened={removing} onClose={() => setRemoving(false)} />
      </LoadedWhenOpened>
    </>
  );
}

/** Asks before removing the card: automatic top-up turns off with it. */
function RemoveCardDialog({ subscription, opened, onClose }: { subscription: Subscription; opened: boolean; onClose: () => void }) {
  return (
    <ConfirmDialog
      opened={opened}
      onClose={onClose}
      title="Remove card"
      confirmLabel="Remove"
      mutation={useRemoveCard()}
      variables={{ subscriptionId: subscription.subscription_id }}
      successMessage={AUTO_TOP_UP_MESSAGES.cardRemoved}
    >
      Remove the saved card of <strong>{subscription.subscription_name}</strong>? Automatic top-up turns off, and the balance is topped up
      only by hand until a card is saved again.
    </ConfirmDialog>
  );
}
