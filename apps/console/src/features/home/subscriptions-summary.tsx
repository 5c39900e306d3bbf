import { MESSAGES } from '@kumo/contract';
import { Link } from 'react-router';
import { Button, Card, EmptyState, Text } from '@mantine/core';
import { IconArrowRight, IconWallet } from '../../components/icons';

/** Left bar of home: one card per subscription with its balance, once subscriptions exist. */
export function SubscriptionsSummary() {
  return (
    <Card h="100%">
      <Text fw={600} mb="md">
        Subscriptions
      </Text>
      <EmptyState
        size="sm"
        variant="light"
        icon={<IconWallet size={22} />}
        title={MESSAGES.noSubscriptions}
        description="Create a subscription and add funds to start deploying clusters."
        py="lg"
      >
        <EmptyState.Actions>
          <Button component={Link} to="/subscriptions" variant="light" rightSection={<IconArrowRight size={16} />}>
            Go to Subscriptions
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Card>
  );
}
