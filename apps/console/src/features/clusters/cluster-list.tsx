import { memo } from 'react';
import { Box, Button, Card, Center, Divider, EmptyState, Group, Loader, Stack, Text } from '@mantine/core';
import { CLUSTER_MESSAGES, type Cluster, type ClusterViewResponse } from '@kumo/contract';
import { IconPlus, IconServer } from '../../components/icons';
import { clusterPath } from '../../lib/cluster-path';
import { useReadOnlyView } from '../../lib/read-only-view';
import { useRevealedCount } from '../../lib/use-revealed-count';
import { ClusterStatusText } from './cluster-status';
import scrollList from '../../components/scroll-list.module.css';
import { ListLink } from '../../components/list-link';
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
  // The first screen's entries render at once, the others in the tasks after it.
  const shown = useRevealedCount(groups.reduce((count, group) => count + group.clusters.length, 0));
  const shownGroups = revealedGroups(groups, shown);
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
        // As tall as the list will be (it scrolls past the screen's height), so the details below it on a phone do not
        // jump when it arrives.
        <Center py="xl" mih={{ base: 'calc(100dvh - 300px)', lg: 200 }}>
          <Loader size="sm" aria-label="Loading clusters" />
        </Center>
      ) : error ? (
        <ErrorAlert error={error} mx="sm" mb="sm" />
      ) : groups.length === 0 ? (
        <EmptyState size="sm" icon={<IconServer size={22} />} title={CLUSTER_MESSAGES.noClusterClickNew} py="xl" />
      ) : (
        // The browser's own scrolling: Mantine's ScrollArea draws its scrollbars in script, rendering the list again each
        // time a step of its entries arrives (useRevealedCount).
        <Box mah="calc(100dvh - 300px)" className={scrollList.list}>
          <Stack component="nav" aria-label="Clusters" gap="sm">
            {shownGroups.map((group) => (
              <Box key={group.subscription_id} role="group" aria-label={group.subscription_name}>
                <Text fz="xs" c="dimmed" tt="uppercase" fw={600} px="sm" py={4} truncate="end">
                  {group.subscription_name}
                </Text>
                {group.clusters.map((cluster) => (
                  <ClusterLink
                    key={cluster.deployment_id}
                    cluster={cluster}
                    subscriptionId={group.subscription_id}
                    active={cluster.deployment_id === selectedId}
                  />
                ))}
              </Box>
            ))}
          </Stack>
        </Box>
      )}
    </Card>
  );
}

/** The groups cut to their first `count` clusters in all, leaving out the groups none of whose clusters are shown yet. */
function revealedGroups(groups: ClusterViewResponse, count: number): ClusterViewResponse {
  const shown: ClusterViewResponse = [];
  let left = count;
  for (const group of groups) {
    if (left <= 0) break;
    shown.push(group.clusters.length <= left ? group : { ...group, clusters: group.clusters.slice(0, left) });
    left -= group.clusters.length;
  }
  return shown;
}

interface ClusterLinkProps {
  cluster: Cluster;
  subscriptionId: string;
  active: boolean;
}

/** One cluster's entry; it renders again only when it changes, so adding the entries below the first screen is cheap. */
const ClusterLink = memo(function ClusterLink({ cluster, subscriptionId, active }: ClusterLinkProps) {
  return (
    <ListLink
      to={clusterPath(subscriptionId, cluster.deployment_id)}
      label={cluster.cluster_name}
      description={[<ClusterStatusText key="status" status={cluster.status} size="xs" />]}
      leftSection={<IconServer size={18} />}
      active={active}
    />
  );
});
