import { Button, Code, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import { CLUSTER_SQL_USER } from '@kumo/contract';
import { DetailField } from '../../components/detail-field';
import { useClusterDetails } from './api/cluster-details';

/** The endpoint's address as a program calls it: the simulated cloud's is a path of this portal. */
const absolute = (endpoint: string) => new URL(endpoint, window.location.origin).toString();

const curlExample = (endpoint: string, user: string) =>
  `curl -u '${user}:YOUR_PASSWORD' -H 'content-type: application/json' \\\n  -d '{"query": "select * from samples.orders limit 10", "max_rows": 1000}' \\\n  ${endpoint}`;

const nodeExample = (endpoint: string, user: string) =>
  `const response = await fetch('${endpoint}', {
  method: 'POST',
  headers: {
    authorization: 'Basic ' + Buffer.from('${user}:' + process.env.KUMO_PASSWORD).toString('base64'),
    'content-type': 'application/json',
  },
  body: JSON.stringify({ query: 'select * from samples.orders limit 10', max_rows: 1000 }),
});
const { columns, rows, truncated } = await response.json();`;

function Example({ label, code }: { label: string; code: string }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text fz="sm" fw={600}>
          {label}
        </Text>
        <CopyButton value={code}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="default" onClick={copy} aria-label={`Copy the ${label} example`}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {code}
      </Code>
    </Stack>
  );
}

/** How a program reaches the cluster's SQL endpoint: its address, its user, and examples to copy. */
export function SqlConnect({ deploymentId }: { deploymentId: string }) {
  const details = useClusterDetails(deploymentId, 'CURRENT');
  const endpoint = details.data?.sql_endpoint ? absolute(details.data.sql_endpoint) : undefined;
  const user = details.data?.sql_user ?? CLUSTER_SQL_USER;
  return (
    <Stack gap="sm" mt="xl" component="section" aria-labelledby="sql-connect-title">
      <Title order={3} fz="md" id="sql-connect-title">
        Connect
      </Title>
      <Group gap="xl" align="flex-start" wrap="wrap">
        <DetailField label="Endpoint">
          <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
            {endpoint ?? '—'}
          </Text>
        </DetailField>
        <DetailField label="User">
          <Text fz="sm">{user}</Text>
        </DetailField>
      </Group>
      <Text fz="sm" c="dimmed">
        The password is the one chosen when the cluster was created. POST a query with HTTP Basic auth; the answer holds the columns with
        their types and the rows.
      </Text>
      {endpoint && (
        <>
          <Example label="curl" code={curlExample(endpoint, user)} />
          <Example label="Node.js" code={nodeExample(endpoint, user)} />
        </>
      )}
    </Stack>
  );
}
