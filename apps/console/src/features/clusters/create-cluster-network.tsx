import { useEffect, useState } from 'react';
import { Controller, type Control, type FieldError, type Merge } from 'react-hook-form';
import { Alert, Loader, Radio, Stack, Text } from '@mantine/core';
import { NETWORK_ACCESS_MESSAGES, type CreateClusterForm, type NetworkAccessChoice } from '@kumo/contract';
import { errorMessage } from '../../lib/api-error';
import { useClientAddress } from './api/network-access';
import { NetworkAccessEditor, type EntryErrors } from './network-access-editor';

type NetworkAccessValue = CreateClusterForm['network_access'];

/** What the form's check says of the list: its own error, and each row's by position. */
interface ListErrors {
  message?: string;
  allowed?: Merge<FieldError, ({ cidr?: FieldError; description?: FieldError } | undefined)[]> & { message?: string };
}

const THIS_ADDRESS_DESCRIPTION = 'This address';

/**
 * Who may reach the new cluster: anywhere (with a word on what that costs an idle cluster), this address only (the
 * caller's address as the portal sees it), or a list.
 */
export function NetworkAccessSection({ control }: { control: Control<CreateClusterForm> }) {
  return (
    <Controller
      control={control}
      name="network_access"
      render={({ field, fieldState }) => <NetworkAccessChoices value={field.value} onChange={field.onChange} errors={fieldState.error} />}
    />
  );
}

function NetworkAccessChoices({
  value,
  onChange,
  errors,
}: {
  value: NetworkAccessValue;
  onChange: (value: NetworkAccessValue) => void;
  errors: ListErrors | undefined;
}) {
  const [choice, setChoice] = useState<NetworkAccessChoice>(value.allow_anywhere ? 'ANYWHERE' : 'LIST');
  const address = useClientAddress({ enabled: choice !== 'ANYWHERE' });
  const clientAddress = address.data?.client_address;

  // "This address only" is the caller's address, filled in once the portal has said what it is.
  useEffect(() => {
    if (choice === 'THIS_ADDRESS' && clientAddress) {
      onChange({ allow_anywhere: false, allowed: [{ cidr: clientAddress, description: THIS_ADDRESS_DESCRIPTION }] });
    }
  }, [choice, clientAddress, onChange]);

  const choose = (next: string) => {
    const picked = next as NetworkAccessChoice;
    setChoice(picked);
    if (picked === 'ANYWHERE') onChange({ allow_anywhere: true, allowed: [] });
    if (picked === 'THIS_ADDRESS')
      onChange({ allow_anywhere: false, allowed: clientAddress ? [{ cidr: clientAddress, description: THIS_ADDRESS_DESCRIPTION }] : [] });
    if (picked === 'LIST')
      onChange({ allow_anywhere: false, allowed: value.allowed.length > 0 ? value.allowed : [{ cidr: '', description: '' }] });
  };

  const rowErrors: (EntryErrors | undefined)[] = Array.isArray(errors?.allowed)
    ? (errors.allowed as ({ cidr?: FieldError; description?: FieldError } | undefined)[]).map((row) =>
        row ? { cidr: row.cidr?.message, description: row.description?.message } : undefined,
      )
    : [];
  const listError = errors?.allowed?.message ?? errors?.message;

  return (
    <Stack gap="xs">
      <Radio.Group
        label="Network access"
        description="Who may reach the cluster's SQL endpoint, Kumo Manager and Web Portal."
        value={choice}
        onChange={choose}
      >
        <Stack gap="xs" mt="xs">
          <Radio value="ANYWHERE" label="Anywhere" />
          <Radio value="THIS_ADDRESS" label="This address only" />
          <Radio value="LIST" label="A list of addresses and ranges" />
        </Stack>
      </Radio.Group>
      {choice === 'ANYWHERE' && (
        <Alert color="yellow" variant="light" role="note">
          <Text fz="sm">{NETWORK_ACCESS_MESSAGES.anywhereWarning}</Text>
        </Alert>
      )}
      {choice === 'THIS_ADDRESS' &&
        (address.isPending ? (
          <Loader size="xs" aria-label="Finding your address" />
        ) : address.isError ? (
          <Text fz="sm" c="red" role="alert">
            {errorMessage(address.error)}
          </Text>
        ) : (
          <Text fz="sm">
            Only{' '}
            <Text span ff="monospace">
              {clientAddress}
            </Text>
            , your address as the portal sees it, may reach the cluster. You can add more later on the cluster&apos;s Network Access tab.
          </Text>
        ))}
      {choice === 'LIST' && (
        <NetworkAccessEditor
          entries={value.allowed}
          onChange={(allowed) => onChange({ allow_anywhere: false, allowed })}
          errors={rowErrors}
          listError={listError}
          clientAddress={clientAddress}
        />
      )}
    </Stack>
  );
}
