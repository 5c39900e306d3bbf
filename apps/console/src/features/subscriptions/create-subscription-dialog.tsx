import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Group, Modal, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  MESSAGES,
  SUBSCRIPTION_LIMITS,
  SUBSCRIPTION_TYPE_LABELS,
  firstError,
  normalizeSubscriptionNameInput,
  remainingCharacters,
  remarkSchema,
  subscriptionNameSchema,
} from '@kumo/contract';
import { ApiError, errorMessage } from '../../lib/api-error';
import { useCreateSubscription } from './api/create-subscription';

interface CreateSubscriptionDialogProps {
  opened: boolean;
  onClose: () => void;
}

export function CreateSubscriptionDialog({ opened, onClose }: CreateSubscriptionDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="New Subscription" centered size="md">
      {/* Mounted only while open, so every opening starts with an empty form. */}
      {opened && <CreateSubscriptionForm onClose={onClose} />}
    </Modal>
  );
}

/** Name (spec section 5 rules), the prepaid plan and remarks with a counter; Subscribe stays off while an error shows. */
function CreateSubscriptionForm({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const create = useCreateSubscription();
  const [name, setName] = useState('');
  const [nameTouched, setNameTouched] = useState(false);
  const [remark, setRemark] = useState('');
  const [serverNameError, setServerNameError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const nameError = serverNameError ?? firstError(subscriptionNameSchema, name);
  const remarkError = firstError(remarkSchema, remark);
  const shownNameError = nameTouched ? nameError : undefined;
  const canSubmit = !nameError && !remarkError && !create.isPending;

  const submit = async () => {
    setNameTouched(true);
    if (!canSubmit) return;
    setFailure(null);
    try {
      const { subscription_id } = await create.mutateAsync({
        subscription_name: name.trim(),
        remark: remark.trim(),
        subscription_type: 'PREPAID',
      });
      notifications.show({ color: 'green', message: MESSAGES.subscriptionCreated });
      onClose();
      void navigate(`/subscriptions/${subscription_id}`);
    } catch (error) {
      const onName =
        error instanceof ApiError
          ? (error.fieldErrors.subscription_name ?? (error.code === 'SUBSCRIPTION_NAME_TAKEN' ? error.message : undefined))
          : undefined;
      if (onName) setServerNameError(onName);
      else setFailure(error instanceof ApiError && error.status ? errorMessage(error) : MESSAGES.subscriptionCreateFailed);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="md">
        <TextInput
          label="Subscription Name"
          placeholder="e.g. Analytics Production"
          required
          data-autofocus
          autoComplete="off"
          maxLength={SUBSCRIPTION_LIMITS.nameMaxLength}
          value={name}
          onChange={(event) => {
            setName(normalizeSubscriptionNameInput(event.currentTarget.value));
            setNameTouched(true);
            setServerNameError(null);
          }}
          onBlur={() => setNameTouched(true)}
          error={shownNameError}
        />
        <Select
          label="Subscription Type"
          data={[{ value: 'PREPAID', label: SUBSCRIPTION_TYPE_LABELS.PREPAID }]}
          value="PREPAID"
          readOnly
          allowDeselect={false}
        />
        <Textarea
          label="Remarks"
          placeholder="Optional: what this subscription is for"
          rows={3}
          maxLength={SUBSCRIPTION_LIMITS.remarkMaxLength}
          value={remark}
          onChange={(event) => setRemark(event.currentTarget.value)}
          description={remainingCharacters(remark)}
          error={remarkError}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
        />
        {failure && (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!!shownNameError || !!remarkError} loading={create.isPending}>
            Subscribe
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
