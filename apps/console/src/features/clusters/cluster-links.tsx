import { useState } from 'react';
import { Button, Group, Loader, Stack } from '@mantine/core';
import { CLUSTER_MESSAGES, canOpenManager, type ClusterStatus, type ManagerAccessLevel, type ManagerTicketPage } from '@kumo/contract';
import { DisabledWithReason } from '../../components/disabled-with-reason';
import { ErrorAlert } from '../../components/error-alert';
import { IconExternal } from '../../components/icons';
import { errorMessage } from '../../lib/api-error';
import { fetchClusterSso } from './api/cluster-sso';
import { useManagerAccess } from './api/manager-access';
import { openClusterManager } from './open-manager';

/** Why Kumo Manager cannot be opened now, or null: only while the cluster is online, and not with No admin access. */
export function managerDisabledReason(status: ClusterStatus, myLevel: ManagerAccessLevel | undefined): string | null {
  if (status !== 'ONLINE') return CLUSTER_MESSAGES.managerUnavailable;
  if (myLevel && !canOpenManager(myLevel)) return CLUSTER_MESSAGES.managerNoAccess;
  return null;
}

function UnavailableButton({ label, reason }: { label: string; reason: string }) {
  return (
    <DisabledWithReason reason={reason}>
      {(props) => (
        <Button
          variant="default"
          leftSection={<IconExternal size={16} />}
          data-disabled
          {...props}
          onClick={(event) => event.preventDefault()}
        >
          {label}
        </Button>
      )}
    </DisabledWithReason>
  );
}

const LABELS: Record<ManagerTicketPage, { label: string; opening: string }> = {
  manager: { label: 'Kumo Manager', opening: CLUSTER_MESSAGES.managerOpening },
  portal: { label: 'Web Portal', opening: CLUSTER_MESSAGES.portalOpening },
};

interface ClusterLinksProps {
  deploymentId: string;
  status: ClusterStatus;
}

/**
 * Kumo Manager and the Web Portal, only while the cluster is online. Each opens in a new window with an address
 * signed for the signed-in person at that moment ('Opening manager' while it is asked for); the manager not for a
 * person whose level is No admin access.
 */
export function ClusterLinks({ deploymentId, status }: ClusterLinksProps) {
  const access = useManagerAccess(deploymentId, { enabled: status === 'ONLINE' });
  const [opening, setOpening] = useState<ManagerTicketPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reasons: Record<ManagerTicketPage, string | null> = {
    manager: managerDisabledReason(status, access.data?.my_access_level),
    portal: status === 'ONLINE' ? null : CLUSTER_MESSAGES.portalUnavailable,
  };

  const open = (page: ManagerTicketPage) => {
    setError(null);
    setOpening(page);
    openClusterManager(deploymentId, async () => (await fetchClusterSso(deploymentId, page)).url, page)
      .catch((failure: unknown) => setError(errorMessage(failure)))
      .finally(() => setOpening(null));
  };

  return (
    <Stack gap="sm" mt="lg">
      <Group gap="sm">
        {(['manager', 'portal'] as const).map((page) => {
          const reason = reasons[page];
          const { label, opening: openingText } = LABELS[page];
          if (reason) return <UnavailableButton key={page} label={label} reason={reason} />;
          const busy = opening === page;
          return (
            <Button
              key={page}
              variant="default"
              leftSection={busy ? <Loader size={14} /> : <IconExternal size={16} />}
              aria-busy={busy}
              onClick={() => !opening && open(page)}
            >
              {busy ? openingText : label}
            </Button>
          );
        })}
      </Group>
      {error && <ErrorAlert>{error}</ErrorAlert>}
    </Stack>
  );
}
