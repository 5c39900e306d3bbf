import { Link } from 'react-router';
import { Box, Button, Card, Center, Divider, EmptyState, Group, Loader, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { CLUSTER_MESSAGES, type ClusterViewResponse } from '@kumo/contract';
import { IconPlus, IconServer } from '../../components/icons';
import { clusterPath } from '../../lib/cluster-path';
import { useReadOnlyView } from '../../lib/read-only-view';
import { ClusterStatusText } from './cluster-status';
import { ErrorAlert } from '../../components/error-alert';

interface ClusterListProps {
  groups: ClusterViewResponse;
  loading: boolean;
  error: unknown;
  selectedId: string | undefined;
  onNew: () => void;
}

export { clusterPath };

/** The account's clusters grouped by the subscription that pays for them, with New. */
export function ClusterList({ groups, loading, error, selectedId, onNew }: ClusterListProps) {
  const readOnly = useReadOnlyView();
  return (
    <Card p="xs">
      <Group justify="space-between" px="sm" pt="xs" pb="sm" wrap="nowrap">
        <Text fw={600}>All clusters</Text>
        {!readOnly && (
          <Button size="xs" leftSection={<IconPlus size={16} />} onClick={onNew} style={{ flexShrink: 0 }}>
            New
          </Button>
        )}
      </Group>
      <Divider mb="xs" />
      {loading ? (
        <Center py="xl">
          <Loader size="sm" aria-label="Loading clusters" />
        </Center>
      ) : error ? (
        <ErrorAlert error={error} mx="sm" mb="sm" />
      ) : groups.length === 0 ? (
        <EmptyState size="sm" icon={<IconServer size={22} />} title={CLUSTER_MESSAGES.noClusterClickNew} py="xl" />
      ) : (
        <ScrollArea.Autosize mah="calc(100dvh - 300px)" type="auto">
          <Stack component="nav" aria-label="Clusters" gap="sm">
            {groups.map((group) => (
              <Box key={group.subscription_id} role="group" aria-label={group.subscription_name}>
                <Text fz="xs" c="dimmed" tt="uppercase" fw={600} px="sm" py={4} truncate="end">
                  {group.subscription_name}
                </Text>
                {group.clusters.map((cluster) => {
                  const active = cluster.deployment_id === selectedId;
                  return (
                    <NavLink
                      key={cluster.deployment_id}
                      component={Link}
                      to={clusterPath(group.subscription_id, cluster.deployment_id)}
                      label={cluster.cluster_name}
                      description={<ClusterStatusText status={cluster.status} size="xs" />}
                      leftSection={<IconServer size={18} />}
                      active={active}
                      aria-current={active ? 'page' : undefined}
                      variant="light"
                      style={{ borderRadius: 'var(--mantine-radius-md)' }}
                      styles={{ label: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', fontWeight: 500 } }}
                    />
                  );
                })}
              </Box>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Card>
  );
}
