import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Code, Modal, Radio, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { z } from 'zod';
import {
  API_TOKEN_EXPIRY_DAYS,
  API_TOKEN_LIMITS,
  API_TOKEN_MESSAGES,
  createApiTokenRequestSchema,
  ipRangeFamily,
  type CreatedApiToken,
} from '@kumo/contract';
import { DialogFormButtons } from '../../components/dialog-form';
import { useCreateApiToken } from './api/api-tokens';
import { SecretShownOnce } from './secret-shown-once';

const NEVER = 'never';
const EXPIRY_OPTIONS = [
  ...API_TOKEN_EXPIRY_DAYS.map((days) => ({ value: String(days), label: `${days} days` })),
  { value: NEVER, label: 'Never' },
];

/** The addresses field holds one range a line (commas and spaces also separate them). */
const rangesOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/** The form's fields: the request's own rules, with the lifetime as a choice and the addresses as text. */
const formSchema = z.object({
  name: createApiTokenRequestSchema.shape.name,
  scope: createApiTokenRequestSchema.shape.scope,
  expiry: z.string(),
  allowedIps: z
    .string()
    .refine((text) => rangesOf(text).every((range) => ipRangeFamily(range) !== null), API_TOKEN_MESSAGES.cidrInvalid)
    .refine((text) => rangesOf(text).length <= API_TOKEN_LIMITS.maxAllowedIps, API_TOKEN_MESSAGES.tooManyIps),
});
type TokenForm = z.input<typeof formSchema>;

const EMPTY_FORM: TokenForm = { name: '', scope: 'READ', expiry: '90', allowedIps: '' };

interface CreateApiTokenDialogProps {
  opened: boolean;
  onClose: () => void;
}

/** Creates a personal API token, then shows its secret this one time with a copy button. */
export function CreateApiTokenDialog({ opened, onClose }: CreateApiTokenDialogProps) {
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={created ? 'Copy your API token' : 'Create API token'} centered size="lg">
      {/* Mounted only while open, so every opening starts with an empty form and no secret. */}
      {opened && (created ? <CreatedToken token={created} onDone={close} /> : <CreateTokenForm onCreated={setCreated} onCancel={close} />)}
    </Modal>
  );
}

function CreateTokenForm({ onCreated, onCancel }: { onCreated: (token: CreatedApiToken) => void; onCancel: () => void }) {
  const createCall = useCreateApiToken();
  const { register, control, handleSubmit, formState } = useForm<TokenForm>({
    resolver: zodResolver(formSchema),
    mode: 'onTouched',
    defaultValues: EMPTY_FORM,
  });

  const submit = handleSubmit((form) =>
    createCall
      .mutateAsync({
        name: form.name,
        scope: form.scope,
        expires_in_days: form.expiry === NEVER ? null : (Number(form.expiry) as (typeof API_TOKEN_EXPIRY_DAYS)[number]),
        allowed_ips: rangesOf(form.allowedIps),
      })
      .then(onCreated)
      .catch(() => undefined),
  );

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          description="What the token is for, e.g. nightly-stop"
          required
          {...register('name')}
          error={formState.errors.name?.message}
        />
        <Controller
          control={control}
          name="scope"
          render={({ field }) => (
            <Radio.Group label="Scope" value={field.value} onChange={field.onChange} error={formState.errors.scope?.message}>
              <Stack gap="xs" mt="xs">
                <Radio value="READ" label="Read: lists, balances, costs and statuses; nothing is changed" />
                <Radio value="WRITE" label="Write: also starts, stops and creates what you could yourself" />
              </Stack>
            </Radio.Group>
          )}
        />
        <Controller
          control={control}
          name="expiry"
          render={({ field }) => (
            <Select
              label="Expires after"
              data={EXPIRY_OPTIONS}
              value={field.value}
              onChange={(value) => field.onChange(value ?? '90')}
              allowDeselect={false}
            />
          )}
        />
        <Textarea
          label="Allowed addresses"
          description="IPv4 or IPv6 addresses or CIDR ranges, one a line. Leave empty to allow any address."
          placeholder={'203.0.113.0/24\n2001:db8::/32'}
          rows={3}
          {...register('allowedIps')}
          error={formState.errors.allowedIps?.message}
        />
        <DialogFormButtons save={createCall} canSubmit submitLabel="Create token" onCancel={onCancel} />
      </Stack>
    </form>
  );
}

function CreatedToken({ token, onDone }: { token: CreatedApiToken; onDone: () => void }) {
  return (
    <SecretShownOnce
      label="API token"
      secret={token.token}
      warning="Copy the token now and keep it somewhere safe: Kumo Cloud stores only a hash of it and cannot show it again."
      copyLabel="Copy token"
      onDone={onDone}
    >
      Send it as <Code>Authorization: Bearer …</Code> on API calls. Its scope is <strong>{token.scope}</strong>.
    </SecretShownOnce>
  );
}
