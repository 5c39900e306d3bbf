import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { AccountUser } from '@kumo/contract';
import { useDeleteUser } from './api/delete-user';
import { notifyError, notifySuccess } from '../../components/notify';

interface DeleteUserDialogProps {
  /** The person to remove; the dialog is open while one is given. */
  user: AccountUser | null;
  onClose: () => void;
  onDeleted: () => void;
}

export function DeleteUserDialog({ user, onClose, onDeleted }: DeleteUserDialogProps) {
  const deleteCall = useDeleteUser();

  const confirm = (target: AccountUser) =>
    deleteCall
      .mutateAsync(target.email_id)
      .then(({ message }) => {
        notifySuccess(message);
        onDeleted();
      })
      .catch((error: unknown) => {
        notifyError(error);
        onClose();
      });

  return (
    <Modal opened={user !== null} onClose={onClose} title="Delete user" centered closeOnClickOutside={!deleteCall.isPending}>
      {user && (
        <Stack gap="lg">
          <Text>
            Remove <strong>{user.user_name}</strong> ({user.email_id}) from this account? They will no longer be able to work in it.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={deleteCall.isPending}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void confirm(user)} loading={deleteCall.isPending}>
              Delete
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
