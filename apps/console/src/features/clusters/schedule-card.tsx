import { useState } from 'react';
import { Button, Center, Group, Loader, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import {
  CLUSTER_MESSAGES,
  WEEK_DAYS,
  putScheduleRequestSchema,
  type ScheduleResponse,
  type ScheduleRule,
  type WeekDay,
} from '@kumo/contract';
import { ApiError } from '../../lib/api-error';
import { formatDateTime } from '../../lib/dates';
import { READ_ONLY_VIEW_REASON, useReadOnlyView } from '../../lib/read-only-view';
import { useSaveSchedule, useSchedule } from './api/schedule';
import { notifySuccess } from '../../components/notify';
import { ErrorAlert } from '../../components/error-alert';
import { browserTimeZone } from '../../lib/time-zone';

const DAY_NAMES: Record<WeekDay, string> = {
  MON: 'Monday',
  TUE: 'Tuesday',
  WED: 'Wednesday',
  THU: 'Thursday',
  FRI: 'Friday',
  SAT: 'Saturday',
  SUN: 'Sunday',
};

type WeekTimes = Record<WeekDay, { start: string; stop: string }>;

/** The rules as a week of start and stop times (one of each per day; empty when none). */
export function weekFromRules(rules: ScheduleRule[]): WeekTimes {
  const week = Object.fromEntries(WEEK_DAYS.map((day) => [day, { start: '', stop: '' }])) as WeekTimes;
  for (const rule of rules) week[rule.day][rule.action === 'START' ? 'start' : 'stop'] = rule.time;
  return week;
}

export function rulesFromWeek(week: WeekTimes): ScheduleRule[] {
  return WEEK_DAYS.flatMap((day) => [
    ...(week[day].start ? [{ day, action: 'START' as const, time: week[day].start }] : []),
    ...(week[day].stop ? [{ day, action: 'STOP' as const, time: week[day].stop }] : []),
  ]);
}

/**
 * Beyond the spec: a weekly start/stop schedule in the customer's time zone. The portal acts on it
 * and writes each start or stop it makes to the audit log.
 */
export function ScheduleCard({ deploymentId }: { deploymentId: string }) {
  const query = useSchedule(deploymentId);
  // Held here, not in the form: a save refreshes the schedule, which mounts a new form, and the saved toast of a
  // mutation whose component has gone would never show.
  const save = useSaveSchedule(deploymentId);
  return (
    <Stack gap="xs">
      <Title order={3} fz="md">
        Weekly schedule
      </Title>
      {query.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label="Loading the schedule" />
        </Center>
      ) : query.isError ? (
        <ErrorAlert error={query.error} />
      ) : (
        // A new form for a new saved schedule, not for each read: a read that brings the same one keeps the edits.
        <ScheduleForm key={JSON.stringify(query.data)} save={save} schedule={query.data} />
      )}
    </Stack>
  );
}

function ScheduleForm({ save, schedule }: { save: ReturnType<typeof useSaveSchedule>; schedule: ScheduleResponse }) {
  // A staff member's view shows the schedule as it is, unchangeable, and says why.
  const readOnly = useReadOnlyView();
  const [enabled, setEnabled] = useState(schedule.enabled);
  const [week, setWeek] = useState(() => weekFromRules(schedule.rules));
  const timeZone = browserTimeZone();
  // The switch's error: the contract's rule (on needs a time to act at), checked before sending, or the server's.
  const [enabledError, setEnabledError] = useState<string | undefined>();
  const setTime = (day: WeekDay, which: 'start' | 'stop', value: string) => {
    setEnabledError(undefined);
    setWeek((current) => ({ ...current, [day]: { ...current[day], [which]: value } }));
  };

  const submit = () => {
    const request = { enabled, time_zone: timeZone, rules: rulesFromWeek(week) };
    const checked = putScheduleRequestSchema.safeParse(request);
    const refused = checked.error?.issues.find((issue) => issue.path[0] === 'enabled');
    if (refused) {
      setEnabledError(refused.message);
      return;
    }
    save.mutate(request, {
      onSuccess: () => notifySuccess(CLUSTER_MESSAGES.scheduleSaved),
      onError: (error) => setEnabledError(error instanceof ApiError ? error.fieldErrors.enabled : undefined),
    });
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Switch
          label="Start and stop this cluster on a weekly schedule"
          checked={enabled}
          disabled={readOnly}
          error={enabledError}
          onChange={(event) => {
            setEnabledError(undefined);
            setEnabled(event.currentTarget.checked);
          }}
        />
        <Text fz="xs" c="dimmed">
          Times in {timeZone}
          {schedule.time_zone !== timeZone && ` (saved in ${schedule.time_zone})`}
        </Text>
      </Group>
      {/* Fits a 390 px phone: short day names below the xs breakpoint, and time fields sharing what is left (fixed
          layout); a narrower screen scrolls the table inside its own box. */}
      <Table.ScrollContainer minWidth={280}>
        <Table layout="fixed" verticalSpacing={4} horizontalSpacing="xs" aria-label="Weekly schedule">
          <Table.Thead>
            <Table.Tr>
              <Table.Th c="dimmed" fz="xs" tt="uppercase" w={{ base: 56, xs: 120 }}>
                Day
              </Table.Th>
              <Table.Th c="dimmed" fz="xs" tt="uppercase">
                Start at
              </Table.Th>
              <Table.Th c="dimmed" fz="xs" tt="uppercase">
                Stop at
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {WEEK_DAYS.map((day) => (
              <Table.Tr key={day}>
                <Table.Td fz="sm">
                  <Text span fz="sm" hiddenFrom="xs">
                    {DAY_NAMES[day].slice(0, 3)}
                  </Text>
                  <Text span fz="sm" visibleFrom="xs">
                    {DAY_NAMES[day]}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <TextInput
                    type="time"
                    size="xs"
                    w="100%"
                    maw={130}
                    aria-label={`Start on ${DAY_NAMES[day]}`}
                    disabled={!enabled || readOnly}
                    value={week[day].start}
                    onChange={(event) => setTime(day, 'start', event.currentTarget.value)}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    type="time"
                    size="xs"
                    w="100%"
                    maw={130}
                    aria-label={`Stop on ${DAY_NAMES[day]}`}
                    disabled={!enabled || readOnly}
                    value={week[day].stop}
                    onChange={(event) => setTime(day, 'stop', event.currentTarget.value)}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {schedule.enabled && schedule.next_run_at && schedule.next_action && (
        <Text fz="sm" c="dimmed" role="status">
          Next: {schedule.next_action === 'START' ? 'start' : 'stop'} on {formatDateTime(schedule.next_run_at)}
        </Text>
      )}
      {save.isError && !enabledError && <ErrorAlert error={save.error} />}
      {readOnly ? (
        <Text fz="sm" c="dimmed">
          {READ_ONLY_VIEW_REASON}
        </Text>
      ) : (
        <Group justify="flex-end">
          <Button onClick={submit} loading={save.isPending}>
            Save schedule
          </Button>
        </Group>
      )}
    </Stack>
  );
}
