import { useState } from 'react';
import { Alert, Button, Center, Group, Loader, Modal, Radio, Stack, Switch, Text } from '@mantine/core';
import { ADMIN_MESSAGES, KM_USER_ROLES, KM_USER_ROLE_LABELS, type KmAccessCheck, type KmUserRole } from '@kumo/contract';
import { useKmAccessCheck, useSaveKmAccess } from './api/customer-tabs';
import { notifySuccess } from '../../components/notify';
import { ErrorAlert } from '../../components/error-alert';

interface KmAccessDialogProps {
  userId: string;
  opened: boolean;
  onClose: () => void;
}

/** Manage KM Access Rights (spec sections 4 and 5): the provider's access and the customer's manager role. */
export function KmAccessDialog({ userId, opened, onClose }: KmAccessDialogProps) {
  const check = useKmAccessCheck(userId, opened);
  return (
    <Modal opened={opened} onClose={onClose} title="Manage KM Access Rights" centered>
      {!opened ? null : check.isPending ? (
        <Center py="lg">
          <Loader size="sm" aria-label="Checking manager access" />
        </Center>
      ) : check.isError ? (
        <ErrorAlert error={check.error} />
      ) : (
        // A new form for new saved rights, not for each read: a read that brings the same ones keeps the choice made.
        <KmAccessForm key={JSON.stringify(check.data)} userId={userId} check={check.data} onClose={onClose} />
      )}
    </Modal>
  );
}

function KmAccessForm({ userId, check, onClose }: { userId: string; check: KmAccessCheck; onClose: () => void }) {
  const [adminAccess, setAdminAccess] = useState(check.admin_access);
  const [role, setRole] = useState<KmUserRole>(check.km_user_role);
  const save = useSaveKmAccess(userId);
  const submit = () =>
    save.mutate(
      { admin_access: adminAccess, km_user_role: role },
      {
        onSuccess: (result) => {
          notifySuccess(result.message);
          onClose();
        },
      },
    );
  const unchanged = adminAccess === check.admin_access && role === check.km_user_role;
  // Without the provider's access a standard customer role changes nothing worth saving (spec section 5).
  const pointless = !adminAccess && role === 'Integration' && check.km_user_role === 'Integration';
  const blocked = !check.km_access_allowed;

  return (
    <Stack gap="md">
      {blocked && (
        <Alert color="yellow" variant="light" role="alert">
          {check.message ?? ADMIN_MESSAGES.kmAccessClustersOffline}
        </Alert>
      )}
      <Switch
        label="Allow the provider's staff into the manager"
        checked={adminAccess}
        disabled={blocked}
        onChange={(event) => setAdminAccess(event.currentTarget.checked)}
      />
      <Radio.Group label="Customer's manager role" value={role} onChange={(value) => setRole(value)}>
        <Group mt="xs">
          {KM_USER_ROLES.map((value) => (
            <Radio
              key={value}
              value={value}
              label={KM_USER_ROLE_LABELS[value]}
              // No way back from administrative to standard.
              disabled={blocked || (value === 'Integration' && check.km_user_role === 'Administrator')}
            />
          ))}
        </Group>
      </Radio.Group>
      {check.km_user_role === 'Administrator' && (
        <Text fz="xs" c="dimmed">
          {ADMIN_MESSAGES.kmAccessRevert}
        </Text>
      )}
      {save.isError && <ErrorAlert error={save.error} />}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button disabled={blocked || unchanged || pointless} loading={save.isPending} onClick={submit}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
