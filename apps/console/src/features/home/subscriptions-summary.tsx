import { MESSAGES, runwayText, type Subscription } from '@kumo/contract';
import { Link, useNavigate } from 'react-router';
import { useId } from 'react';
import { ActionIcon, Box, Button, Card, Group, Menu, Paper, Stack, Text } from '@mantine/core';
import { CardEmptyState, CardLoader } from '../../components/card-states';
import { IconArrowRight, IconDots, IconWallet } from '../../components/icons';
import { useSubscriptionList } from '../../lib/api/subscription-list';
import { useRunways } from './api/runways';
import { ErrorAlert } from '../../components/error-alert';
import { Amount } from '../../components/amount';

/** Left bar of home: one card per subscription with its balance and a menu to go to it. */
export function SubscriptionsSummary() {
  const query = useSubscriptionList();
  const subscriptions = query.data ?? [];
  const runways = useRunways(subscriptions.length > 0);
  const headingId = useId();
  return (
    <Card h="100%" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" mb="md">
        <Text fw={600} component="h2" fz="md" m={0} id={headingId}>
          Subscriptions
        </Text>
        {subscriptions.length > 0 && (
          <Text fz="xs" c="dimmed">
            {subscriptions.length} in all
          </Text>
        )}
      </Group>
      {query.isPending ? (
        // About one subscription's card, so the clusters below do not jump when the list arrives.
        <CardLoader label="Loading subscriptions" mih={150} />
      ) : query.isError ? (
        <ErrorAlert title={MESSAGES.subscriptionsFetchFailed} error={query.error} />
      ) : subscriptions.length === 0 ? (
        <CardEmptyState
          icon={<IconWallet size={22} />}
          title={MESSAGES.noSubscriptions}
          description="Create a subscription and add funds to start deploying clusters."
          py="lg"
          action={
            <Button component={Link} to="/subscriptions" variant="light" rightSection={<IconArrowRight size={16} />}>
              Go to Subscriptions
            </Button>
          }
        />
      ) : (
        // A plain scrolling box: Mantine's ScrollArea sizes its content to the widest line unwrapped (a long name),
        // which pushed the cards, their runway line and their actions button past the column's edge.
        <Box mah={560} style={{ overflowY: 'auto', overflowX: 'hidden' }}>
          <Stack gap="sm" aria-label="Subscription balances" role="list">
            {subscriptions.map((subscription) => (
              <SummaryCard
                key={subscription.subscription_id}
                subscription={subscription}
                runwayHours={runways.data?.get(subscription.subscription_id)?.runway_hours ?? null}
                runwayPending={runways.isPending}
              />
            ))}
          </Stack>
        </Box>
      )}
    </Card>
  );
}

/** A card per subscription; the runway shows only while something is charged and the balance lasts. */
function SummaryCard({
  subscription,
  runwayHours,
  runwayPending,
}: {
  subscription: Subscription;
  runwayHours: number | null;
  /** While the runways load, their line's height is kept, so the cards below do not move when it arrives. */
  runwayPending: boolean;
}) {
  const navigate = useNavigate();
  return (
    <Paper withBorder radius="md" p="md" role="listitem" aria-label={subscription.subscription_name}>
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Text fw={600} truncate="end" miw={0} title={subscription.subscription_name}>
          {subscription.subscription_name}
        </Text>
        <Menu position="bottom-end" shadow="md" width={200}>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Actions for ${subscription.subscription_name}`}>
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              leftSection={<IconArrowRight size={16} />}
              onClick={() => void navigate(`/subscriptions/${subscription.subscription_id}`)}
            >
              Go to Subscription
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      <Text fz="xs" c="dimmed" mt={6}>
        Balance
      </Text>
      <Amount value={subscription.total_amount} fz="xl" fw={700} />
      {runwayHours !== null ? (
        <Text fz="xs" c="dimmed">
          Lasts {runwayText(runwayHours)} at the current rate
        </Text>
      ) : (
        runwayPending && (
          <Text fz="xs" aria-hidden>
            &nbsp;
          </Text>
        )
      )}
    </Paper>
  );
}
