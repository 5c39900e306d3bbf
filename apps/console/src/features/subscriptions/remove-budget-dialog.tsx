import { BUDGET_MESSAGES, type Subscription } from '@kumo/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
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
  return (
    <ConfirmDialog
      opened={opened}
      onClose={onClose}
      title="Remove budget"
      confirmLabel="Remove"
      mutation={useRemoveBudget()}
      variables={{ subscriptionId: subscription.subscription_id }}
      successMessage={BUDGET_MESSAGES.budgetDeleted}
    >
      Remove the monthly budget of <strong>{subscription.subscription_name}</strong>? No more budget alerts are sent, and a hard cap no
      longer stops its clusters.
    </ConfirmDialog>
  );
}
