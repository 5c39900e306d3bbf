import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Checkbox, Code, Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { z } from 'zod';
import { WEBHOOK_SIGNATURE_HEADER, createWebhookRequestSchema, type CreatedWebhook } from '@kumo/contract';
import { DialogFormButtons } from '../../components/dialog-form';
import { ApiError } from '../../lib/api-error';
import { useCreateWebhook } from './api/webhooks';
import { SecretShownOnce } from './secret-shown-once';
import { WEBHOOK_EVENT_OPTIONS } from './webhook-events';

type WebhookFormInput = z.input<typeof createWebhookRequestSchema>;
type WebhookFormValues = z.output<typeof createWebhookRequestSchema>;
const FIELDS = ['url', 'events'] as const;
type WebhookField = (typeof FIELDS)[number];

interface AddWebhookDialogProps {
  opened: boolean;
  onClose: () => void;
}

/** Adds an endpoint for the account's events, then shows its signing secret this one time with a copy button. */
export function AddWebhookDialog({ opened, onClose }: AddWebhookDialogProps) {
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={created ? 'Copy your signing secret' : 'Add webhook endpoint'} centered size="lg">
      {/* Mounted only while open, so every opening starts with an empty form and no secret. */}
      {opened &&
        (created ? <CreatedSecret webhook={created} onDone={close} /> : <AddWebhookForm onCreated={setCreated} onCancel={close} />)}
    </Modal>
  );
}

function AddWebhookForm({ onCreated, onCancel }: { onCreated: (webhook: CreatedWebhook) => void; onCancel: () => void }) {
  const createCall = useCreateWebhook();
  const { register, control, handleSubmit, formState, setError } = useForm<WebhookFormInput, unknown, WebhookFormValues>({
    resolver: zodResolver(createWebhookRequestSchema),
    mode: 'onTouched',
    defaultValues: { url: '', events: [] },
  });

  /** The server's answers about one field (field_errors, e.g. `url` or `events.0`) appear under it. */
  const showOnFields = (error: unknown): boolean => {
    if (!(error instanceof ApiError)) return false;
    const onFields = Object.entries(error.fieldErrors)
      .map(([key, message]) => [key.split('.')[0], message] as const)
      .filter((entry): entry is [WebhookField, string] => FIELDS.includes(entry[0] as WebhookField));
    onFields.forEach(([field, message]) => setError(field, { type: 'server', message }, { shouldFocus: true }));
    return onFields.length > 0;
  };

  const submit = (values: WebhookFormValues) =>
    createCall.mutate(values, {
      onSuccess: onCreated,
      onError: (error) => {
        if (showOnFields(error)) createCall.reset();
      },
    });

  return (
    <form onSubmit={(event) => void handleSubmit(submit)(event)} noValidate>
      <Stack gap="md">
        <TextInput
          label="Endpoint URL"
          description="An https:// address of yours; each event is POSTed to it as JSON."
          placeholder="https://hooks.example.com/kumo"
          required
          type="url"
          autoComplete="off"
          {...register('url')}
          error={formState.errors.url?.message}
        />
        <Controller
          control={control}
          name="events"
          render={({ field, fieldState }) => (
            <Checkbox.Group
              label="Events"
              description="The events sent to this endpoint."
              required
              value={field.value}
              onChange={field.onChange}
              error={fieldState.error?.message}
            >
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs" mt="xs">
                {WEBHOOK_EVENT_OPTIONS.map(({ type, label }) => (
                  <Checkbox key={type} value={type} label={label} description={type} onBlur={field.onBlur} />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
          )}
        />
        <DialogFormButtons save={createCall} canSubmit submitLabel="Add endpoint" onCancel={onCancel} />
      </Stack>
    </form>
  );
}

function CreatedSecret({ webhook, onDone }: { webhook: CreatedWebhook; onDone: () => void }) {
  return (
    <SecretShownOnce
      label="Signing secret"
      secret={webhook.secret}
      warning="Copy the signing secret now and keep it somewhere safe: Kumo Cloud will not show it again."
      copyLabel="Copy secret"
      onDone={onDone}
    >
      Your endpoint checks each delivery&apos;s <Code>{WEBHOOK_SIGNATURE_HEADER}</Code> header with it, to know the event came from Kumo
      Cloud.
    </SecretShownOnce>
  );
}
