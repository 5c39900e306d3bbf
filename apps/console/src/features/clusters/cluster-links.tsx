import { useState } from 'react';
import { Button, Group, Loader, Stack } from '@mantine/core';
import { CLUSTER_MESSAGES, canOpenManager, type ClusterStatus, type ManagerAccessLevel } from '@kumo/contract';
import { DisabledWithReason } from '../../components/disabled-with-reason';
import { ErrorAlert } from '../../components/error-alert';
import { IconExternal } from '../../components/icons';
import { errorMessage } from '../../lib/api-error';
import { fetchClusterDetails } from './api/cluster-details';
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

interface ClusterLinksProps {
  deploymentId: string;
  status: ClusterStatus;
  /** The Web Portal's signed address while the cluster is online. */
  portalUrl: string | null;
}

/**
 * Kumo Manager and the Web Portal, only while the cluster is online. The manager opens in a new window with a fresh
 * signed address ('Opening manager' while it is read), and not for a person whose level is No admin access.
 */
export function ClusterLinks({ deploymentId, status, portalUrl }: ClusterLinksProps) {
  const access = useManagerAccess(deploymentId, { enabled: status === 'ONLINE' });
  const [opening, setOpening] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const reason = managerDisabledReason(status, access.data?.my_access_level);

  const open = () => {
    setError(null);
    setOpening(true);
    openClusterManager(deploymentId, async () => (await fetchClusterDetails(deploymentId, 'CURRENT')).kumo_manager_url)
      .catch((failure: unknown) => setError(errorMessage(failure)))
      .finally(() => setOpening(false));
  };

  return (
    <Stack gap="sm" mt="lg">
      <Group gap="sm">
        {reason ? (
          <UnavailableButton label="Kumo Manager" reason={reason} />
        ) : (
          <Button
            variant="default"
            leftSection={opening ? <Loader size={14} /> : <IconExternal size={16} />}
            aria-busy={opening}
            onClick={() => !opening && open()}
          >
            {opening ? CLUSTER_MESSAGES.managerOpening : 'Kumo Manager'}
          </Button>
        )}
        {status === 'ONLINE' && portalUrl ? (
          <Button
            component="a"
            href={portalUrl}
            target="_blank"
            rel="noopener noreferrer"
            variant="default"
            leftSection={<IconExternal size={16} />}
          >
            Web Portal
          </Button>
        ) : (
          <UnavailableButton label="Web Portal" reason={CLUSTER_MESSAGES.managerUnavailable} />
        )}
      </Group>
      {error && <ErrorAlert>{error}</ErrorAlert>}
    </Stack>
  );
}
