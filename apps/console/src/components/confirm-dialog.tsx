import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { ErrorAlert } from './error-alert';
import { notifySuccess } from './notify';

/** The call the dialog confirms, as a react-query mutation offers it. */
interface ConfirmedMutation<V> {
  mutate: (variables: V, options: { onSuccess: () => void }) => void;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  reset: () => void;
}

interface ConfirmDialogProps<V> {
  opened: boolean;
  title: string;
  /** The question, naming what the action changes. */
  children: ReactNode;
  confirmLabel: string;
  mutation: ConfirmedMutation<V>;
  variables: V;
  /** Said once the call has succeeded and the dialog has closed. */
  successMessage: string;
  onClose: () => void;
}

/**
 * Asks before a destructive call. A failed call stays in the dialog, above its buttons; closing clears it, so the
 * dialog opens clean the next time.
 */
export function ConfirmDialog<V>({
  opened,
  title,
  children,
  confirmLabel,
  mutation,
  variables,
  successMessage,
  onClose,
}: ConfirmDialogProps<V>) {
  const close = () => {
    mutation.reset();
    onClose();
  };
  const confirm = () =>
    mutation.mutate(variables, {
      onSuccess: () => {
        notifySuccess(successMessage);
        close();
      },
    });

  return (
    <Modal opened={opened} onClose={close} title={title} centered size="md">
      <Stack gap="md">
        <Text>{children}</Text>
        {mutation.isError && <ErrorAlert error={mutation.error} />}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button color="red" onClick={confirm} loading={mutation.isPending}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
