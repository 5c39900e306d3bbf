import { useState, type KeyboardEvent } from 'react';
import { Alert, Button, Group, Kbd, Stack, Text, Textarea } from '@mantine/core';
import { CLUSTER_SQL_MESSAGES, type ClusterStatus } from '@kumo/contract';
import { ErrorAlert } from '../../components/error-alert';
import { useRunQuery } from './api/sql';
import { SqlConnect } from './sql-connect';
import { SqlHistory } from './sql-history';
import { SqlResults } from './sql-results';

const FIRST_QUERY = `select r.region_name, count(*) as orders, sum(o.quantity * p.unit_price) as revenue
from samples.orders o
join samples.customers c using (customer_id)
join samples.regions r using (region_id)
join samples.products p using (product_id)
group by 1
order by revenue desc`;

/** The cluster's SQL console: an editor (Ctrl+Enter runs it), the answer or the engine's error, the history, and how to connect. */
export function SqlTab({ deploymentId, status }: { deploymentId: string; status: ClusterStatus }) {
  const [text, setText] = useState(FIRST_QUERY);
  const run = useRunQuery(deploymentId);
  const online = status === 'ONLINE';
  const canRun = online && text.trim().length > 0 && !run.isPending;

  const submit = () => {
    if (canRun) run.mutate(text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <Stack gap={0}>
      {!online && (
        <Alert color="gray" variant="light" mb="md">
          {CLUSTER_SQL_MESSAGES.notOnline}
        </Alert>
      )}
      <Textarea
        label="SQL query"
        description="The sample dataset is in the schema samples: regions, customers, products and orders."
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        rows={8}
        resize="vertical"
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <Group justify="space-between" mt="sm" gap="sm">
        <Text fz="xs" c="dimmed">
          <Kbd>Ctrl</Kbd> + <Kbd>Enter</Kbd> runs the query
        </Text>
        <Button onClick={submit} disabled={!canRun} loading={run.isPending}>
          Run
        </Button>
      </Group>
      {run.error && <ErrorAlert error={run.error} mt="sm" />}
      {run.data && !run.error && <SqlResults result={run.data} />}
      <SqlHistory deploymentId={deploymentId} />
      <SqlConnect deploymentId={deploymentId} />
    </Stack>
  );
}
