import { useState } from 'react';
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { MESSAGES } from '@kumo/contract';
import { AuditLogTable } from '../../components/audit-log-table';
import { MonthSelect } from '../../components/cost/month-select';
import { costMonthOptions, utcMonthStart } from '../../components/cost/months';
import { IconEye } from '../../components/icons';
import { useAccountAudit, useAccountAuditDownload } from './api/account-audit';

/** When Kumo Cloud staff viewed this account's console (read-only, to help it) and what they did to it, a month at a time. */
export function StaffAccess() {
  const [month, setMonth] = useState(() => utcMonthStart());
  const query = useAccountAudit(month);
  const download = useAccountAuditDownload(month);
  return (
    <Card mt="lg" component="section" aria-labelledby="staff-access-title">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" gap="sm">
          <div>
            <Text id="staff-access-title" fw={600}>
              Staff access
            </Text>
            <Text fz="sm" c="dimmed">
              When Kumo Cloud staff viewed this console to help you (they can only look: nothing can be changed in their view), and what
              they did for this account from their side, such as funds added, new rates or opening a cluster&apos;s manager.
            </Text>
          </div>
          <Group gap="xs" align="flex-end">
            <MonthSelect options={costMonthOptions()} value={month} onChange={setMonth} label="Entries for" />
            {/* The whole trail of the month: cluster events and staff actions together. */}
            <Button variant="default" loading={download.isPending && download.variables === 'csv'} onClick={() => download.mutate('csv')}>
              Export audit CSV
            </Button>
            <Button variant="default" loading={download.isPending && download.variables === 'json'} onClick={() => download.mutate('json')}>
              Export audit JSON
            </Button>
          </Group>
        </Group>
        <AuditLogTable query={query} label="Staff access" emptyIcon={<IconEye size={24} />} emptyTitle={MESSAGES.noStaffViews} />
      </Stack>
    </Card>
  );
}
