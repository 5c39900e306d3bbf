import { ListLink } from '../../components/list-link';
import { Box, Button, Card, Center, Divider, EmptyState, Group, Loader, Text } from '@mantine/core';
import { MESSAGES, amountToCents, centsToAmount, type Subscription } from '@kumo/contract';
import { IconPlus, IconWallet } from '../../components/icons';
import { formatUsd } from '../../lib/format';
import { useReadOnlyView } from '../../lib/read-only-view';
import type { useSubscriptions } from './api/subscription-list';
import { ErrorAlert } from '../../components/error-alert';
import scrollList from '../../components/scroll-list.module.css';

interface SubscriptionListProps {
  query: ReturnType<typeof useSubscriptions>;
  selectedId: string | undefined;
  onNew: () => void;
}

/** The sum of the balances, added up in cents. */
export function totalBalance(subscriptions: Subscription[]): number {
  return centsToAmount(subscriptions.reduce((sum, subscription) => sum + amountToCents(subscription.total_amount), 0));
}

/** The account's subscriptions with their balances, the total, and New. */
export function SubscriptionList({ query, selectedId, onNew }: SubscriptionListProps) {
  const subscriptions = query.data ?? [];
  // A staff member's view offers no New: the server would refuse it (READ_ONLY_VIEW).
  const readOnly = useReadOnlyView();
  return (
    <Card p="xs">
      <Group justify="space-between" px="sm" pt="xs" pb="sm" wrap="nowrap">
        <Text fw={600}>All subscriptions</Text>
        {!readOnly && (
          <Button size="xs" leftSection={<IconPlus size={16} />} onClick={onNew} style={{ flexShrink: 0 }}>
            New
          </Button>
        )}
      </Group>
      <Box px="sm" pb="sm" role="group" aria-label="Total balance">
        <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
          Total balance
        </Text>
        <Text fz={24} fw={700}>
          {query.isSuccess ? formatUsd(totalBalance(subscriptions)) : '—'}
        </Text>
      </Box>
      <Divider mb="xs" />
      {query.isPending ? (
        <Center py="xl">
          <Loader size="sm" aria-label="Loading subscriptions" />
        </Center>
      ) : query.isError ? (
        <ErrorAlert title={MESSAGES.subscriptionsFetchFailed} error={query.error} mx="sm" mb="sm" />
      ) : subscriptions.length === 0 ? (
        <EmptyState
          size="sm"
          icon={<IconWallet size={22} />}
          title={MESSAGES.noSubscriptions}
          description={readOnly ? undefined : 'Click New to create a subscription.'}
          py="xl"
        />
      ) : (
        // The browser's own scrolling, as in every list of the console: Mantine's ScrollArea measures its scrollbars in
        // a resize observer's animation frame, a forced style and layout of the page on its first screen.
        <Box mah="calc(100dvh - 360px)" className={scrollList.list}>
          <nav aria-label="Subscriptions">
            {subscriptions.map((subscription) => (
              <ListLink
                key={subscription.subscription_id}
                to={`/subscriptions/${subscription.subscription_id}`}
                label={subscription.subscription_name}
                description={[`Balance ${formatUsd(subscription.total_amount)}`]}
                active={subscription.subscription_id === selectedId}
              />
            ))}
          </nav>
        </Box>
      )}
    </Card>
  );
}
