import { useState, type ReactNode } from 'react';
import { Button, Center, Group, Loader, SimpleGrid, Stack, Switch, Table, Text, Title, type TableTdProps } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { AUTO_STOP_MESSAGES, type AutoStopResponse } from '@kumo/contract';
import { DetailField } from '../../components/detail-field';
import classes from '../../components/stacked-table.module.css';
import { STACKED_TABLE_QUERY } from '../../components/stacked-table-query';
import { ErrorAlert } from '../../components/error-alert';
import { notifySuccess } from '../../components/notify';
import { ApiError } from '../../lib/api-error';
import { clientName } from '../../lib/client-name';
import { formatDateTime } from '../../lib/dates';
import { formatUsd } from '../../lib/format';
import { READ_ONLY_VIEW_REASON, useReadOnlyView } from '../../lib/read-only-view';
import { useAutoStop, useSaveAutoStop } from './api/auto-stop';
import { IdleMinutesField, idleValueOf, readIdleMinutes } from './idle-minutes-field';

const SOURCE_LABELS = { CONSOLE: 'Console', ENDPOINT: 'SQL endpoint' } as const;

/**
 * Idle auto-stop on the cluster page: the setting and restart when funded, when the cluster stops if nothing happens,
 * what kept it awake over the last day, and what auto-stop saved this month.
 */
export function AutoStopCard({ deploymentId }: { deploymentId: string }) {
  const query = useAutoStop(deploymentId);
  // Held here, not in the form: a save remounts the form with what the server keeps, and the toast must survive it.
  const save = useSaveAutoStop(deploymentId);
  return (
    <Stack gap="xs">
      <Title order={3} fz="md">
        Auto-stop
      </Title>
      {query.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label="Loading auto-stop" />
        </Center>
      ) : query.isError ? (
        <ErrorAlert error={query.error} />
      ) : (
        <>
          <AutoStopForm key={`${query.data.idle_minutes}-${query.data.restart_when_funded}`} save={save} settings={query.data} />
          <AutoStopFacts settings={query.data} />
          <WakeSources settings={query.data} />
        </>
      )}
    </Stack>
  );
}

function AutoStopForm({ save, settings }: { save: ReturnType<typeof useSaveAutoStop>; settings: AutoStopResponse }) {
  const readOnly = useReadOnlyView();
  const [idle, setIdle] = useState(() => idleValueOf(settings.idle_minutes));
  const [restart, setRestart] = useState(settings.restart_when_funded);
  const [error, setError] = useState<string | undefined>();

  const submit = () => {
    const read = readIdleMinutes(idle);
    if (!read.ok) {
      setError(read.error);
      return;
    }
    save.mutate(
      { idle_minutes: read.idleMinutes, restart_when_funded: restart },
      {
        onSuccess: () => notifySuccess(AUTO_STOP_MESSAGES.saved),
        onError: (failure) => setError(failure instanceof ApiError ? failure.fieldErrors.idle_minutes : undefined),
      },
    );
  };

  return (
    <Stack gap="sm">
      <IdleMinutesField
        value={idle}
        error={error}
        disabled={readOnly}
        onChange={(value) => {
          setError(undefined);
          setIdle(value);
        }}
      />
      <Switch
        label="Restart when funded"
        description="Start it again on its own once the balance is topped up after an overdue stop, or the budget allows it after a hard-cap stop. Never a cluster a person stopped."
        checked={restart}
        disabled={readOnly}
        onChange={(event) => setRestart(event.currentTarget.checked)}
      />
      {save.isError && !error && <ErrorAlert error={save.error} />}
      {readOnly ? (
        <Text fz="sm" c="dimmed">
          {READ_ONLY_VIEW_REASON}
        </Text>
      ) : (
        <Group justify="flex-end">
          <Button onClick={submit} loading={save.isPending}>
            Save auto-stop
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function AutoStopFacts({ settings }: { settings: AutoStopResponse }) {
  const stops =
    settings.idle_minutes === null ? 'Auto-stop is off' : settings.stops_at ? formatDateTime(settings.stops_at) : 'Only while online';
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" role="status" aria-label="Auto-stop now">
      <DetailField label="Stops if idle until">
        <Text fz="sm">{stops}</Text>
      </DetailField>
      <DetailField label="Last query">
        <Text fz="sm">{settings.last_activity_at ? formatDateTime(settings.last_activity_at) : 'None yet'}</Text>
      </DetailField>
      <DetailField label="Saved this month">
        <Text fz="sm">{formatUsd(settings.saved_this_month)}</Text>
      </DetailField>
    </SimpleGrid>
  );
}

const WAKE_COLUMNS = ['Source', 'Address', 'User', 'Client', 'Queries', 'Last query'];

/** Who kept the cluster awake: scanners and health checks show here as much as people do. */
function WakeSources({ settings }: { settings: AutoStopResponse }) {
  // On a phone the rows are cards (stacked-table): nothing to scroll sideways, so no width to hold.
  const phone = useMediaQuery(STACKED_TABLE_QUERY);
  if (settings.wake_sources.length === 0) {
    return (
      <Text fz="sm" c="dimmed">
        No queries kept it awake in the last 24 hours.
      </Text>
    );
  }
  const cell = (label: string, content: ReactNode, props: TableTdProps = {}) => (
    <Table.Td fz="sm" data-label={label} {...props}>
      {content}
    </Table.Td>
  );
  // On a phone each source is a card of named values (stacked-table), so the client and the last query stay on screen.
  return (
    <Table.ScrollContainer minWidth={phone ? 0 : 620}>
      <Table verticalSpacing={4} horizontalSpacing="xs" className={classes.table} aria-label="What kept it awake in the last 24 hours">
        <Table.Thead>
          <Table.Tr>
            {WAKE_COLUMNS.map((column) => (
              <Table.Th key={column} c="dimmed" fz="xs" tt="uppercase">
                {column}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {settings.wake_sources.map((source) => (
            <Table.Tr key={`${source.source}|${source.client_address}|${source.user}|${source.user_agent}`}>
              {cell('Source', SOURCE_LABELS[source.source])}
              {cell('Address', source.client_address ?? '—', { ff: 'monospace' })}
              {cell('User', source.user, { style: { overflowWrap: 'anywhere' } })}
              {cell('Client', source.user_agent ? clientName(source.user_agent) : '—', { title: source.user_agent ?? undefined })}
              {cell('Queries', source.queries)}
              {cell('Last query', formatDateTime(source.last_at))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
