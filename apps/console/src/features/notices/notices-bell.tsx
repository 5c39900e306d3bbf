import { Link } from 'react-router';
import { ActionIcon, Anchor, Badge, Button, Group, Indicator, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { useDisclosure, useId } from '@mantine/hooks';
import type { Notice } from '@kumo/contract';
import { ErrorAlert } from '../../components/error-alert';
import { IconBell } from '../../components/icons';
import { notifyError } from '../../components/notify';
import { formatDateTime } from '../../lib/dates';
import { useReadOnlyView } from '../../lib/read-only-view';
import { useLatestNotices, useMarkNoticesRead } from './api/notices';

/** The bell's accessible name: what it is, and how many notices wait. */
export function bellLabel(unread: number): string {
  return unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
}

function NoticeItem({ notice, onOpen }: { notice: Notice; onOpen: () => void }) {
  const unread = notice.read_at === null;
  return (
    <Stack gap={2} component="li" py="xs" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Text size="sm" fw={unread ? 700 : 500}>
          {notice.link ? (
            <Anchor component={Link} to={notice.link} onClick={onOpen} inherit>
              {notice.title}
            </Anchor>
          ) : (
            notice.title
          )}
        </Text>
        {unread && (
          // Never shrunk by a long title into an ellipsis.
          <Badge size="xs" variant="light" style={{ flexShrink: 0 }}>
            New
          </Badge>
        )}
      </Group>
      <Text size="sm">{notice.body}</Text>
      <Text size="xs" c="dimmed">
        {formatDateTime(notice.created_at)}
      </Text>
    </Stack>
  );
}

/** The bell in the top bar: the unread count, and the latest notices in a popover with "Mark all as read". */
export function NoticesBell() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const headingId = useId();
  const notices = useLatestNotices();
  const markRead = useMarkNoticesRead();
  const readOnly = useReadOnlyView();
  const unread = notices.data?.unread ?? 0;
  const items = notices.data?.content ?? [];

  const markAll = () => markRead.mutate({ all: true }, { onError: (error) => notifyError(error) });

  return (
    // The Indicator sits outside the Popover so the popover's target, which carries aria-expanded, is the button itself.
    <Indicator label={unread > 99 ? '99+' : unread} size={16} disabled={unread === 0} offset={4} color="red">
      <Popover
        opened={opened}
        onChange={(value) => (value ? undefined : close())}
        position="bottom-end"
        width={360}
        shadow="md"
        trapFocus
        returnFocus
      >
        <Popover.Target>
          <ActionIcon variant="subtle" color="gray" size="lg" onClick={toggle} aria-label={bellLabel(unread)}>
            <IconBell />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown aria-labelledby={headingId}>
          <Group justify="space-between" mb="xs">
            <Text fw={700} id={headingId}>
              Notifications
            </Text>
            {!readOnly && (
              <Button size="compact-sm" variant="subtle" onClick={markAll} disabled={unread === 0} loading={markRead.isPending}>
                Mark all as read
              </Button>
            )}
          </Group>
          {notices.isError ? (
            <ErrorAlert error={notices.error} />
          ) : notices.isPending ? (
            <Text size="sm" c="dimmed">
              Loading…
            </Text>
          ) : items.length === 0 ? (
            <Text size="sm" c="dimmed">
              No notifications yet.
            </Text>
          ) : (
            <ScrollArea.Autosize mah={420} type="auto">
              <Stack gap={0} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
                {items.map((notice) => (
                  <NoticeItem key={notice.id} notice={notice} onOpen={close} />
                ))}
              </Stack>
            </ScrollArea.Autosize>
          )}
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
