import { useState } from 'react';
import { Group, Stack } from '@mantine/core';
import { CLUSTER_MESSAGES } from '@kumo/contract';
import { AuditLogTable } from '../../components/audit-log-table';
import { MonthSelect } from '../../components/cost/month-select';
import { costMonthOptions, utcMonthStart } from '../../components/cost/months';
import { IconReceipt } from '../../components/icons';
import { useAuditLogs } from './api/audit-logs';

/** A month of the cluster's audit log, 20 entries at a time. */
export function AuditLogsTab({ deploymentId }: { deploymentId: string }) {
  const [month, setMonth] = useState(() => utcMonthStart());
  const query = useAuditLogs(deploymentId, month);
  return (
    <Stack gap="md">
      <Group justify="flex-end">
        <MonthSelect options={costMonthOptions()} value={month} onChange={setMonth} label="Logs for" />
      </Group>
      <AuditLogTable query={query} label="Audit logs" emptyIcon={<IconReceipt size={24} />} emptyTitle={CLUSTER_MESSAGES.noAuditLogs} />
    </Stack>
  );
}
