import { Alert, List, Loader, SimpleGrid, Table, Text } from '@mantine/core';
import {
  FREE_UNIT_DIMENSIONS,
  METERING_DIMENSION_LABELS,
  METERING_UNIT_LABELS,
  countOf,
  runwayText,
  type BalanceOutlook,
  type FreeCreditGrant,
  type MeteringDimension,
  type ScheduledRateChange,
} from '@kumo/contract';
import { DetailField } from '../../components/detail-field';
import { IconClock } from '../../components/icons';
import { formatUsd } from '../../lib/format';
import { formatDateTime } from '../../lib/dates';
import { useBalanceOutlook } from './api/balance-outlook';
import { ErrorAlert } from '../../components/error-alert';
import { formatUtcDate } from '../../lib/dates';

const daysLeftText = (days: number) => (days < 1 ? 'less than a day left' : `${countOf(days, 'day')} left`);

const FREE_UNIT_NAMES: Partial<Record<MeteringDimension, string>> = { DATA_PROCESS: 'build hours', LOCAL_STORAGE: 'GB-month' };

function rateText(dimension: MeteringDimension, rate: number, freeUnits: number) {
  const free = (FREE_UNIT_DIMENSIONS as readonly string[]).includes(dimension)
    ? `, ${freeUnits} free ${FREE_UNIT_NAMES[dimension]} a month`
    : '';
  return `${formatUsd(rate, 4)} ${METERING_UNIT_LABELS[dimension]}${free}`;
}

/** "New rates from <date>": each scheduled change with the rates it changes, until it takes effect. */
export function ScheduledRateNotices({ subscriptionId }: { subscriptionId: string }) {
  const { data } = useBalanceOutlook(subscriptionId);
  return (data?.scheduled_rate_changes ?? []).map((change) => <ScheduledRateNotice key={change.effective_date} change={change} />);
}

function ScheduledRateNotice({ change }: { change: ScheduledRateChange }) {
  const day = formatUtcDate(change.effective_date);
  return (
    <Alert mt="md" color="blue" variant="light" icon={<IconClock size={18} />} role="note" title={`New rates from ${day}`}>
      <Text fz="sm">Your account&apos;s rates change at midnight UTC; usage before then is charged at the current rates.</Text>
      <Table.ScrollContainer minWidth={480}>
        <Table mt="xs" fz="sm" aria-label={`Rates changing on ${day}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Service</Table.Th>
              <Table.Th>Now</Table.Th>
              <Table.Th>From {day}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {change.rates.map((rate) => (
              <Table.Tr key={rate.dimension}>
                <Table.Td>{METERING_DIMENSION_LABELS[rate.dimension]}</Table.Td>
                <Table.Td>{rateText(rate.dimension, rate.previous_rate, rate.previous_free_units)}</Table.Td>
                <Table.Td fw={600}>{rateText(rate.dimension, rate.rate, rate.free_units)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Alert>
  );
}

/** How long the balance lasts at the current rate, and paid funds and free credits apart with each grant. */
export function BalanceOutlookFields({ subscriptionId }: { subscriptionId: string }) {
  const query = useBalanceOutlook(subscriptionId);
  if (query.isPending) return <Loader size="sm" mt="lg" aria-label="Loading balance outlook" />;
  if (query.isError) {
    return <ErrorAlert error={query.error} mt="lg" />;
  }
  const outlook = query.data;
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} mt="lg" spacing="md">
      <DetailField label="Balance lasts">
        <Runway outlook={outlook} />
      </DetailField>
      <DetailField label="Paid funds">
        <Text fw={500}>{formatUsd(outlook.paid_funds)}</Text>
      </DetailField>
      <DetailField label="Free credits">
        <Text fw={500}>{formatUsd(outlook.free_credits)}</Text>
        {outlook.free_credit_grants.length > 0 && (
          <List size="xs" c="dimmed" spacing={2} listStyleType="none" aria-label="Free credit grants">
            {outlook.free_credit_grants.map((grant, index) => (
              <List.Item key={`${grant.expires_at}-${index}`}>{grantText(grant)}</List.Item>
            ))}
          </List>
        )}
      </DetailField>
    </SimpleGrid>
  );
}

function grantText(grant: FreeCreditGrant) {
  const amount =
    grant.remaining === grant.amount ? formatUsd(grant.amount) : `${formatUsd(grant.remaining)} left of ${formatUsd(grant.amount)}`;
  return `${amount}, expires ${formatDateTime(grant.expires_at)} (${daysLeftText(grant.days_left)})`;
}

/** Honest in every case: a runway only while something is charged and the balance is not used up. */
function Runway({ outlook }: { outlook: BalanceOutlook }) {
  const rate = `${formatUsd(outlook.hourly_rate)} per hour`;
  const [headline, detail] =
    outlook.hourly_rate === 0
      ? ['Not being spent', 'Nothing is charged now']
      : outlook.runway_hours === null
        ? ['Used up', `Clusters cost ${rate}`]
        : [runwayText(outlook.runway_hours)!, `at the current rate of ${rate}`];
  const stop = stopText(outlook);
  return (
    <>
      <Text fw={500}>{headline.charAt(0).toUpperCase() + headline.slice(1)}</Text>
      <Text fz="xs" c="dimmed">
        {detail}
      </Text>
      {stop && (
        <Text fz="xs" c="dimmed">
          {stop}
        </Text>
      )}
    </>
  );
}

/** When the overdue guard stops the running clusters: at zero, or at minus the overdue limit staff allow. */
export function stopText(outlook: Pick<BalanceOutlook, 'hours_until_stop' | 'overdue_limit'>): string | null {
  if (outlook.hours_until_stop === null) return null;
  const limit = outlook.overdue_limit > 0 ? `-${formatUsd(outlook.overdue_limit)}` : null;
  if (outlook.hours_until_stop === 0) {
    return `Running clusters are being stopped: the balance is ${limit ? `below your overdue limit of ${limit}` : 'used up'}.`;
  }
  return limit
    ? `Running clusters stop in ${runwayText(outlook.hours_until_stop)}, when the balance reaches your overdue limit of ${limit}.`
    : 'Running clusters are stopped when it is used up.';
}
