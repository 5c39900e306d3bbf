import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { Button, Group, Modal, Select, Stack, TextInput, Textarea } from '@mantine/core';
import type { z } from 'zod';
import {
  MESSAGES,
  SUBSCRIPTION_LIMITS,
  SUBSCRIPTION_TYPE_LABELS,
  createSubscriptionRequestSchema,
  normalizeSubscriptionNameInput,
  remainingCharacters,
} from '@kumo/contract';
import { ApiError, errorMessage } from '../../lib/api-error';
import { useCreateSubscription } from './api/create-subscription';
import { SignUpCreditsNotice } from './sign-up-credits-notice';
import { notifySuccess } from '../../components/notify';
import { ErrorAlert } from '../../components/error-alert';

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

type CreateForm = z.input<typeof createSubscriptionRequestSchema>;
type CreatePayload = z.output<typeof createSubscriptionRequestSchema>;

/** Name (spec section 5 rules), the prepaid plan and remarks with a counter; Subscribe stays off while an error shows. */
function CreateSubscriptionForm({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const create = useCreateSubscription();
  const [failure, setFailure] = useState<string | null>(null);
  const { control, register, handleSubmit, formState, setError } = useForm<CreateForm, unknown, CreatePayload>({
    // The contract's request schema: the console checks exactly what the API will.
    resolver: zodResolver(createSubscriptionRequestSchema),
    // A name is checked while it is typed and when the field is left.
    mode: 'all',
    defaultValues: { subscription_name: '', remark: '', subscription_type: 'PREPAID' },
  });
  const remark = useWatch({ control, name: 'remark' }) ?? '';
  const { errors } = formState;

  const submit = async (request: CreatePayload) => {
    setFailure(null);
    try {
      const { subscription_id } = await create.mutateAsync(request);
      notifySuccess(MESSAGES.subscriptionCreated);
      onClose();
      void navigate(`/subscriptions/${subscription_id}`);
    } catch (error) {
      const onName =
        error instanceof ApiError
          ? (error.fieldErrors.subscription_name ?? (error.code === 'SUBSCRIPTION_NAME_TAKEN' ? error.message : undefined))
          : undefined;
      // A server verdict on the name shows under it until the name changes (the next check replaces it).
      if (onName) setError('subscription_name', { type: 'server', message: onName }, { shouldFocus: true });
      else setFailure(error instanceof ApiError && error.status ? errorMessage(error) : MESSAGES.subscriptionCreateFailed);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
      <Stack gap="md">
        <Controller
          control={control}
          name="subscription_name"
          render={({ field, fieldState }) => (
            <TextInput
              label="Subscription Name"
              placeholder="e.g. Analytics Production"
              required
              data-autofocus
              autoComplete="off"
              maxLength={SUBSCRIPTION_LIMITS.nameMaxLength}
              name={field.name}
              ref={field.ref}
              value={field.value}
              onChange={(event) => field.onChange(normalizeSubscriptionNameInput(event.currentTarget.value))}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
            />
          )}
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
          {...register('remark')}
          description={remainingCharacters(remark)}
          error={errors.remark?.message}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
        />
        <SignUpCreditsNotice />
        {failure && <ErrorAlert>{failure}</ErrorAlert>}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!!errors.subscription_name || !!errors.remark} loading={create.isPending}>
            Subscribe
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
