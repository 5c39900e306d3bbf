import { useState } from 'react';
import { Alert, Badge, Button, Center, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { AutoTopUp, AutoTopUpAttempt, AutoTopUpOutcome, AutoTopUpStatus, Subscription } from '@kumo/contract';
import { DetailField } from '../../components/detail-field';
import { ErrorAlert } from '../../components/error-alert';
import { IconAlertTriangle } from '../../components/icons';
import { formatUsd } from '../../lib/format';
import { formatDateTime } from '../../lib/dates';
import { useReadOnlyView } from '../../lib/read-only-view';
import { useAutoTopUp } from './api/auto-top-up';
import { useCardReturn, useCardSavedReturn } from './card-return';
import { CardActions } from './card-actions';
import { describeCard } from './saved-card';
import { lazyChunk } from '../../lib/load-chunk';
import { LoadedWhenOpened } from '../../components/loaded-when-opened';

// Loaded and rendered when first opened: its form and checks stay out of the page's first screen.
const AutoTopUpDialog = lazyChunk(() => import('./auto-top-up-dialog').then((m) => ({ default: m.AutoTopUpDialog })));

const STATUS_BADGES: Record<AutoTopUpStatus, { label: string; color: string }> = {
  OFF: { label: 'Off', color: 'gray' },
  ACTIVE: { label: 'Active', color: 'teal' },
  PAUSED_AFTER_FAILURE: { label: 'Paused after a failed payment', color: 'red' },
};

const OUTCOME_LABELS: Record<AutoTopUpOutcome, string> = {
  SUCCEEDED: 'Succeeded',
  DECLINED: 'Declined',
  AUTHENTICATION_REQUIRED: 'Authentication required',
};

interface AutoTopUpCardProps {
  subscription: Subscription;
  /** Opens the manual top-up (Add Funds), offered while automatic top-up is paused. */
  onTopUpNow: () => void;
}

/** The subscription's automatic top-up on its Overview: status, saved card, settings, this month's use and the last attempt. */
export function AutoTopUpCard({ subscription, onTopUpNow }: AutoTopUpCardProps) {
  const returning = useCardReturn();
  const query = useAutoTopUp(subscription.subscription_id, returning);
  // A staff member's view shows the settings and changes nothing: the server would refuse it (READ_ONLY_VIEW).
  const readOnly = useReadOnlyView();
  const [editing, setEditing] = useState(false);
  useCardSavedReturn(returning, { autoTopUp: query.data, settled: query.isFetched && !query.isFetching });
  const autoTopUp = query.data;

  return (
    <Paper withBorder p="md" mt="lg" component="section" aria-labelledby="auto-top-up-title">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Title order={3} fz="md" id="auto-top-up-title">
            Automatic top-up
          </Title>
          {autoTopUp && (
            <Badge variant="light" color={STATUS_BADGES[autoTopUp.status].color} data-testid="auto-top-up-status">
              {STATUS_BADGES[autoTopUp.status].label}
            </Badge>
          )}
        </Group>
        {query.isPending ? (
          <Center py="md">
            <Loader size="sm" aria-label="Loading automatic top-up" />
          </Center>
        ) : query.isError ? (
          <ErrorAlert error={query.error} />
        ) : (
          <>
            {query.data.status === 'PAUSED_AFTER_FAILURE' && (
              <PausedAlert autoTopUp={query.data} readOnly={readOnly} onTopUpNow={onTopUpNow} onResume={() => setEditing(true)} />
            )}
            <AutoTopUpDetails autoTopUp={query.data} />
            {!readOnly && <CardActions subscription={subscription} autoTopUp={query.data} onEdit={() => setEditing(true)} />}
          </>
        )}
      </Stack>
      <LoadedWhenOpened opened={editing}>
        <AutoTopUpDialog subscription={subscription} autoTopUp={editing ? (autoTopUp ?? null) : null} onClose={() => setEditing(false)} />
      </LoadedWhenOpened>
    </Paper>
  );
}

function PausedAlert({
  autoTopUp,
  readOnly,
  onTopUpNow,
  onResume,
}: {
  autoTopUp: AutoTopUp;
  readOnly: boolean;
  onTopUpNow: () => void;
  onResume: () => void;
}) {
  const attempt = autoTopUp.last_attempt;
  return (
    <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle size={18} />} title="Automatic top-up is paused">
      <Stack gap="xs">
        <Text fz="sm">
          {attempt
            ? `The charge of ${formatUsd(attempt.amount)} on ${formatDateTime(attempt.at)} did not go through${attempt.message ? `: ${attempt.message}` : '.'}`
            : 'The last charge did not go through.'}{' '}
          Nothing more is charged until the settings are saved again, so the balance may run out.
        </Text>
        {!readOnly && (
          <Group gap="xs">
            <Button size="xs" color="red" onClick={onTopUpNow}>
              Top up now
            </Button>
            <Button size="xs" variant="default" onClick={onResume}>
              Resume top-up
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

function AutoTopUpDetails({ autoTopUp }: { autoTopUp: AutoTopUp }) {
  return (
    <>
      {autoTopUp.status === 'OFF' && (
        <Text fz="sm" c="dimmed" maw={560}>
          With a saved card, the balance is topped up when a metering run leaves it under the threshold: at most once an hour, never over
          the monthly cap, and the owner is told each time.
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <DetailField label="Card">
          <Text fz="sm">{autoTopUp.payment_method ? describeCard(autoTopUp.payment_method) : 'No card saved'}</Text>
        </DetailField>
        <DetailField label="When the balance is under">
          <Text fz="sm">{formatUsd(autoTopUp.threshold_amount)}</Text>
        </DetailField>
        <DetailField label="Top up by">
          <Text fz="sm">{formatUsd(autoTopUp.top_up_amount)}</Text>
        </DetailField>
        <DetailField label="Monthly cap">
          <Text fz="sm">
            {formatUsd(autoTopUp.month_to_date)} of {formatUsd(autoTopUp.monthly_cap)} used this month
          </Text>
        </DetailField>
      </SimpleGrid>
      <DetailField label="Last attempt">
        <Text fz="sm">{autoTopUp.last_attempt ? describeAttempt(autoTopUp.last_attempt) : 'None yet'}</Text>
      </DetailField>
    </>
  );
}

function describeAttempt(attempt: AutoTopUpAttempt): string {
  const outcome = OUTCOME_LABELS[attempt.outcome];
  const said = attempt.message ? ` (${attempt.message})` : '';
  return `${formatDateTime(attempt.at)}: ${formatUsd(attempt.amount)}, ${outcome}${said}`;
}
