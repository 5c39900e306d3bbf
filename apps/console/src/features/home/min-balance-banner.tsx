import { Link } from 'react-router';
import { Alert, Anchor, Group, Text } from '@mantine/core';
import { MESSAGES, MINIMUM_BALANCE_CENTS, amountToCents } from '@kumo/contract';
import { IconAlertTriangle } from '../../components/icons';
import { formatUsd } from '../../lib/format';
import { useSubscriptionList } from '../../lib/api/subscription-list';

/** Shown while any subscription is below the minimum balance, naming the ones that are. */
export function MinBalanceBanner() {
  const { data } = useSubscriptionList();
  const low = (data ?? []).filter((subscription) => amountToCents(subscription.total_amount) < MINIMUM_BALANCE_CENTS);
  if (low.length === 0) return null;
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} mb="lg" role="alert" title="Minimum balance">
      <Text fz="sm">{MESSAGES.minimumBalance}</Text>
      <Group gap="md" mt={6}>
        {low.map((subscription) => (
          <Anchor
            key={subscription.subscription_id}
            component={Link}
            to={`/subscriptions/${subscription.subscription_id}`}
            fz="sm"
            fw={600}
          >
            {subscription.subscription_name} ({formatUsd(subscription.total_amount)})
          </Anchor>
        ))}
      </Group>
    </Alert>
  );
}
