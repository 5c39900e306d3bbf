import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Checkbox, Group, Loader, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import type { z } from 'zod';
import { INVITABLE_ROLES, MESSAGES, ROLE_LABELS, emailSchema, inviteRequestSchema, normalizeNameInput } from '@kumo/contract';
import { IconLock } from '../../components/icons';
import { ApiError, errorMessage } from '../../lib/api-error';
import { useCheckUser } from './api/check-user';
import { useInviteUser } from './api/invite-user';
import { useUsersSubscriptions } from './api/users-subscriptions';
import { notifyError, notifySuccess } from '../../components/notify';
import { ErrorAlert } from '../../components/error-alert';

type InviteForm = z.input<typeof inviteRequestSchema>;
type InvitePayload = z.output<typeof inviteRequestSchema>;
type InviteField = keyof InviteForm;

const EMPTY_FORM: InviteForm = { invited_user_id: '', invited_user_name: '', role: 'ACCOUNT_ADMIN', subscription_ids: [] };
const FIELDS = Object.keys(EMPTY_FORM) as InviteField[];

interface AddUserDialogProps {
  opened: boolean;
  onClose: () => void;
}

/** Invites a person to the logged-in account (spec section 5, "Add user"). */
export function AddUserDialog({ opened, onClose }: AddUserDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Add user" centered size="lg">
      {/* Mounted only while open, so every opening starts with an empty form. */}
      {opened && <AddUserForm onClose={onClose} />}
    </Modal>
  );
}

function AddUserForm({ onClose }: { onClose: () => void }) {
  const inviteCall = useInviteUser();
  const lookupCall = useCheckUser();
  const { register, control, handleSubmit, formState, getValues, setValue, setError, clearErrors, resetField, trigger } = useForm<
    InviteForm,
    unknown,
    InvitePayload
  >({
    resolver: zodResolver(inviteRequestSchema),
    mode: 'onTouched',
    defaultValues: EMPTY_FORM,
  });
  const role = useWatch({ control, name: 'role' });
  const isClusterMember = role === 'CLUSTER_MEMBER';
  const subscriptions = useUsersSubscriptions({ enabled: isClusterMember });

  /** The registered person the e-mail belongs to: their name is filled in and cannot be changed. */
  const [registered, setRegistered] = useState<{ email: string; name: string } | null>(null);
  /** A lookup failure other than "not registered", shown under the e-mail. */
  const [lookupError, setLookupError] = useState<string | null>(null);
  const [lookingUpEmail, setLookingUpEmail] = useState<string | null>(null);

  const currentEmail = () => emailSchema.safeParse(getValues('invited_user_id')).data;

  const lookUpName = async () => {
    const email = currentEmail();
    if (!email || email === registered?.email || email === lookingUpEmail) return;
    setLookingUpEmail(email);
    try {
      const name = await lookupCall.mutateAsync(email);
      // The e-mail may have been edited while the lookup ran.
      if (currentEmail() !== email) return;
      setRegistered({ email, name });
      setValue('invited_user_name', name, { shouldValidate: true, shouldTouch: true, shouldDirty: true });
    } catch (error) {
      if (currentEmail() !== email) return;
      // Not registered yet: the name is typed in by hand.
      if (error instanceof ApiError && error.code === 'USER_NOT_FOUND') return;
      setLookupError(errorMessage(error));
    } finally {
      setLookingUpEmail((current) => (current === email ? null : current));
    }
  };

  const onEmailChange = () => {
    setLookupError(null);
    if (registered) {
      // The name belonged to the previous e-mail: the field starts afresh.
      setRegistered(null);
      resetField('invited_user_name');
    }
  };

  const submit = handleSubmit(async (values) => {
    const payload = { ...values, subscription_ids: values.role === 'CLUSTER_MEMBER' ? values.subscription_ids : [] };
    try {
      await inviteCall.mutateAsync(payload);
      notifySuccess(MESSAGES.invitationSent);
      onClose();
    } catch (error) {
      if (!showOnFields(error)) notifyError(error);
    }
  });

  /** Server answers about one field appear under it: field_errors, or an e-mail that already belongs here. */
  const showOnFields = (error: unknown): boolean => {
    if (!(error instanceof ApiError)) return false;
    const fieldErrors = Object.entries(error.fieldErrors).filter((entry): entry is [InviteField, string] =>
      FIELDS.includes(entry[0] as InviteField),
    );
    fieldErrors.forEach(([field, message]) => setError(field, { message }));
    if (fieldErrors.length > 0) return true;
    if (error.code === 'ALREADY_MEMBER') {
      setError('invited_user_id', { message: error.message });
      return true;
    }
    return false;
  };

  const lookingUp = lookingUpEmail !== null;
  const nameLocked = registered !== null;
  const hasErrors = Object.keys(formState.errors).length > 0 || lookupError !== null;
  const canSubmit = formState.isValid && !hasErrors && !lookingUp && !formState.isSubmitting;

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <TextInput
          label="Email"
          type="email"
          autoComplete="off"
          placeholder="name@company.com"
          required
          data-autofocus
          error={formState.errors.invited_user_id?.message ?? lookupError}
          {...register('invited_user_id', { onChange: onEmailChange, onBlur: () => void lookUpName() })}
        />
        <Controller
          control={control}
          name="invited_user_name"
          render={({ field, fieldState }) => (
            <TextInput
              label="Full name"
              autoComplete="off"
              placeholder={lookingUp ? 'Looking up the name…' : 'First and last name'}
              required
              readOnly={nameLocked}
              aria-busy={lookingUp}
              description={nameLocked ? MESSAGES.nameFromProfile : undefined}
              rightSection={lookingUp ? <Loader size="xs" aria-label="Looking up the name" /> : nameLocked ? <IconLock size={16} /> : null}
              error={fieldState.error?.message}
              name={field.name}
              ref={field.ref}
              value={field.value}
              onBlur={field.onBlur}
              onChange={(event) => field.onChange(normalizeNameInput(event.currentTarget.value))}
              styles={nameLocked ? { input: { backgroundColor: 'var(--mantine-color-gray-0)', cursor: 'default' } } : undefined}
            />
          )}
        />
        <Controller
          control={control}
          name="role"
          render={({ field }) => (
            <Radio.Group
              label="Role"
              required
              name={field.name}
              value={field.value}
              onChange={(value) => {
                field.onChange(value);
                // A Cluster Member needs a subscription: say so as soon as the role is chosen; admins need none.
                if (value === 'CLUSTER_MEMBER') void trigger('subscription_ids');
                else clearErrors('subscription_ids');
              }}
            >
              <Group mt={6} gap="xl">
                {INVITABLE_ROLES.map((option) => (
                  <Radio key={option} value={option} label={ROLE_LABELS[option]} />
                ))}
              </Group>
            </Radio.Group>
          )}
        />
        {isClusterMember && (
          // Said as the role is chosen (an alert is announced), before the person is invited to a console they cannot use.
          <Alert color="blue" variant="light" icon={<IconLock size={18} />}>
            {MESSAGES.clusterMemberInviteNote}
          </Alert>
        )}
        {isClusterMember && (
          <Controller
            control={control}
            name="subscription_ids"
            render={({ field, fieldState }) => (
              <Checkbox.Group
                label="Subscriptions"
                description="The subscriptions this Cluster Member can work with."
                required
                value={field.value ?? []}
                onChange={(value) => {
                  field.onChange(value);
                  field.onBlur();
                }}
                error={fieldState.error?.message}
              >
                <Stack gap={8} mt="xs">
                  {subscriptions.isPending ? (
                    <Loader size="xs" aria-label="Loading subscriptions" />
                  ) : subscriptions.isError ? (
                    <ErrorAlert error={subscriptions.error} />
                  ) : subscriptions.data.length === 0 ? (
                    <Text fz="sm" c="dimmed">
                      {MESSAGES.noSubscriptions}
                    </Text>
                  ) : (
                    subscriptions.data.map((subscription) => (
                      <Checkbox
                        key={subscription.subscription_id}
                        value={subscription.subscription_id}
                        label={subscription.subscription_name}
                      />
                    ))
                  )}
                </Stack>
              </Checkbox.Group>
            )}
          />
        )}
        <Group justify="flex-end" gap="sm" mt="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!canSubmit} loading={formState.isSubmitting}>
            Invite
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
