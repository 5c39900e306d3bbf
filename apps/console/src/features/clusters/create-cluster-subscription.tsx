import { Controller, type Control } from 'react-hook-form';
import { Alert, Group, Loader, Select, Text } from '@mantine/core';
import { CLUSTER_LIMITS, CLUSTER_MESSAGES, MESSAGES, amountToCents, type CreateClusterForm, type Subscription } from '@kumo/contract';
import { formatUsd } from '../../lib/format';
import { statusColorClass } from './cluster-status';
import { boundSelect } from './create-cluster-bindings';
import { ErrorAlert } from '../../components/error-alert';

export const belowMinimumBalance = (subscription: Pick<Subscription, 'total_amount'> | undefined) =>
  !!subscription && amountToCents(subscription.total_amount) < CLUSTER_LIMITS.minimumBalanceCents;

interface SubscriptionSectionProps {
  control: Control<CreateClusterForm>;
  /** Whether the subscriptions, regions or versions are still loading. */
  loading: boolean;
  subscriptionList: Subscription[] | undefined;
  /** Why the subscriptions could not be read, if they could not. */
  subscriptionsError: unknown;
  /** The subscription picked, once the list has it. */
  selected: Subscription | undefined;
  insufficient: boolean;
}

/** The top of the create form: what is still loading, the subscription that pays and whether its balance is enough. */
export function SubscriptionSection({
  control,
  loading,
  subscriptionList,
  subscriptionsError,
  selected,
  insufficient,
}: SubscriptionSectionProps) {
  return (
    <>
      {loading && (
        <Group gap="xs">
          <Loader size="xs" aria-label="Loading the form" />
          <Text fz="sm" c="dimmed">
            Loading subscriptions, regions and versions…
          </Text>
        </Group>
      )}
      {subscriptionList?.length === 0 && (
        <Alert color="yellow" variant="light" role="alert">
          A cluster is paid for by a subscription. Create a subscription on the Subscriptions page first.
        </Alert>
      )}
      {subscriptionsError != null && <ErrorAlert title={MESSAGES.subscriptionsFetchFailed} error={subscriptionsError} />}
      <Controller
        control={control}
        name="selectedSubscription"
        render={(rendered) => (
          <Select
            label="Subscription"
            required
            placeholder="Select a subscription"
            data={(subscriptionList ?? []).map((subscription) => ({
              value: subscription.subscription_id,
              label: subscription.subscription_name,
            }))}
            {...boundSelect(rendered)}
          />
        )}
      />
      {selected && (
        <Text
          fz="sm"
          role="status"
          data-testid="balance-line"
          c={insufficient ? undefined : 'dimmed'}
          className={insufficient ? statusColorClass('red') : undefined}
        >
          {insufficient ? CLUSTER_MESSAGES.insufficientBalance : `Balance: ${formatUsd(selected.total_amount)}`}
        </Text>
      )}
    </>
  );
}
