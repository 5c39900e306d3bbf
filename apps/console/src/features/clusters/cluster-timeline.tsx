import { useId, type ReactNode } from 'react';
import { Badge, Button, Center, EmptyState, Group, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { AUDIT_EVENT_LABELS, CLUSTER_MESSAGES, type AuditEvent, type TimelineEntry } from '@kumo/contract';
import { IconCheck, IconCircle, IconClock, IconPlayerPlay, IconPlayerStop, IconReceipt, IconTrash, IconX } from '../../components/icons';
import { formatUsd } from '../../lib/format';
import { useTimeline } from './api/timeline';
import classes from './cluster-timeline.module.css';
import { ErrorAlert } from '../../components/error-alert';
import { formatLongDay, todayUtc } from '../../lib/dates';

/** Hours and minutes in UTC, the time the day groups are cut in. */
const utcTime = (at: string) => `${at.slice(11, 16)} UTC`;

/**
 * Beyond the spec: what happened to the cluster and what it cost, newest first, one group per UTC day (the days
 * charges are billed in): the day's charges, deployment steps and lifecycle events, 14 days at a time.
 */
export function ClusterTimeline({ deploymentId }: { deploymentId: string }) {
  const headingId = useId();
  const query = useTimeline(deploymentId);
  const days = query.data?.pages.flatMap((page) => page.days) ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" align="baseline" gap="xs">
        <Title order={3} fz="md" id={headingId}>
          Timeline
        </Title>
        <Text fz="xs" c="dimmed">
          Newest first, by day in UTC
        </Text>
      </Group>
      {query.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label="Loading the timeline" />
        </Center>
      ) : query.isError ? (
        <ErrorAlert error={query.error} />
      ) : days.length === 0 ? (
        <EmptyState variant="light" icon={<IconClock size={24} />} title={CLUSTER_MESSAGES.noTimeline} py="lg" />
      ) : (
        <>
          <ol className={classes.days} aria-labelledby={headingId}>
            {days.map((day) => (
              <TimelineDay key={day.day} day={day.day} entries={day.entries} />
            ))}
          </ol>
          {query.hasNextPage && (
            <Group>
              <Button variant="default" size="xs" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                Show earlier days
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}

function TimelineDay({ day, entries }: { day: string; entries: TimelineEntry[] }) {
  const headingId = useId();
  return (
    <li>
      <Title order={4} fz="sm" fw={600} mb="xs" id={headingId}>
        <time dateTime={day}>{formatLongDay(day)}</time>
      </Title>
      <ol className={classes.entries} aria-labelledby={headingId}>
        {entries.map((entry, index) => (
          <li key={index} className={classes.entry} data-kind={entry.kind}>
            <EntryContent entry={entry} today={day === todayUtc()} />
          </li>
        ))}
      </ol>
    </li>
  );
}

const STEP_BADGES = {
  success: { label: 'Done', color: 'teal' },
  progress: { label: 'In progress', color: 'indigo' },
  error: { label: 'Failed', color: 'red' },
} as const;

function EntryContent({ entry, today }: { entry: TimelineEntry; today: boolean }) {
  if (entry.kind === 'CHARGE') {
    return (
      <Row
        icon={<EntryIcon color="grape" icon={<IconReceipt size={16} />} />}
        title={today ? 'Charges so far today' : 'Charges for the day'}
        aside={<span className={classes.amount}>{formatUsd(entry.amount)}</span>}
      />
    );
  }
  const step = entry.kind === 'DEPLOYMENT_STEP' ? STEP_BADGES[entry.state] : null;
  return (
    <Row
      icon={entry.kind === 'DEPLOYMENT_STEP' ? <StepIcon state={entry.state} /> : <EventIcon event={entry.event} />}
      title={entry.kind === 'DEPLOYMENT_STEP' ? entry.step : AUDIT_EVENT_LABELS[entry.event]}
      badge={
        step && (
          <Badge variant="light" color={step.color} tt="none" size="sm">
            {step.label}
          </Badge>
        )
      }
      aside={
        <time className={classes.time} dateTime={entry.at}>
          {utcTime(entry.at)}
        </time>
      }
    >
      <p className={classes.description}>{entry.description}</p>
      <p className={classes.causedBy}>by {entry.caused_by}</p>
    </Row>
  );
}

/** An entry's text, in plain elements styled by the module: a cluster's timeline holds dozens of them. */
function Row(props: { icon: ReactNode; title: string; badge?: ReactNode; aside?: ReactNode; children?: ReactNode }) {
  return (
    <>
      {props.icon}
      <div className={classes.body}>
        <div className={classes.head}>
          <div className={classes.titleLine}>
            <span className={classes.title}>{props.title}</span>
            {props.badge}
          </div>
          {props.aside}
        </div>
        {props.children}
      </div>
    </>
  );
}

function EntryIcon({ color, icon, variant = 'light' }: { color: string; icon: ReactNode; variant?: 'light' | 'filled' }) {
  return (
    <ThemeIcon variant={variant} radius="xl" size={28} color={color} aria-hidden="true" style={{ flexShrink: 0 }}>
      {icon}
    </ThemeIcon>
  );
}

function StepIcon({ state }: { state: 'success' | 'progress' | 'error' }) {
  if (state === 'progress') return <EntryIcon color="indigo" icon={<Loader size={14} color="indigo" />} />;
  if (state === 'error') return <EntryIcon color="red" variant="filled" icon={<IconX size={16} />} />;
  return <EntryIcon color="teal" variant="filled" icon={<IconCheck size={16} />} />;
}

const EVENT_ICONS: Partial<Record<AuditEvent, { color: string; icon: ReactNode }>> = {
  CLUSTER_START_REQUESTED: { color: 'teal', icon: <IconPlayerPlay size={14} /> },
  CLUSTER_START_REFUSED: { color: 'red', icon: <IconPlayerPlay size={14} /> },
  CLUSTER_STARTED: { color: 'teal', icon: <IconPlayerPlay size={14} /> },
  CLUSTER_STOP_REQUESTED: { color: 'gray', icon: <IconPlayerStop size={14} /> },
  CLUSTER_STOPPED: { color: 'gray', icon: <IconPlayerStop size={14} /> },
  CLUSTER_DELETE_REQUESTED: { color: 'red', icon: <IconTrash size={14} /> },
  CLUSTER_DELETE_APPROVED: { color: 'red', icon: <IconTrash size={14} /> },
  CLUSTER_DELETED: { color: 'red', icon: <IconTrash size={14} /> },
  CLUSTER_SCHEDULE_CHANGED: { color: 'blue', icon: <IconClock size={14} /> },
};

function EventIcon({ event }: { event: AuditEvent }) {
  const shown = EVENT_ICONS[event] ?? { color: 'gray', icon: <IconCircle size={12} /> };
  return <EntryIcon color={shown.color} icon={shown.icon} />;
}
