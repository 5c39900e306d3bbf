import { useState } from 'react';
import { Alert, Button, Center, Group, Loader, Radio, Stack, Text } from '@mantine/core';
import {
  NETWORK_ACCESS_MESSAGES,
  networkAccessSchema,
  type NetworkAccessEntryInput,
  type NetworkAccessRequest,
  type NetworkAccessResponse,
} from '@kumo/contract';
import { ApiError } from '../../lib/api-error';
import { formatDateTime } from '../../lib/dates';
import { READ_ONLY_VIEW_REASON, useReadOnlyView } from '../../lib/read-only-view';
import { useClientAddress, useNetworkAccess, useSaveNetworkAccess } from './api/network-access';
import { NetworkAccessEditor, type EntryErrors } from './network-access-editor';
import { notifySuccess } from '../../components/notify';
import { ErrorAlert } from '../../components/error-alert';

/** The cluster's network access list: who may reach its SQL endpoint, Kumo Manager and Web Portal. */
export function NetworkAccessTab({ deploymentId }: { deploymentId: string }) {
  const query = useNetworkAccess(deploymentId);
  // Held here, not in the form: a save refreshes the list, which mounts a new form, and the saved toast stays.
  const save = useSaveNetworkAccess(deploymentId);
  if (query.isPending)
    return (
      <Center py="md">
        <Loader size="sm" aria-label="Loading the network access" />
      </Center>
    );
  if (query.isError) return <ErrorAlert error={query.error} />;
  // A new form for a new saved list, not for each read: a read that brings the same list keeps the edits under way.
  return <NetworkAccessForm key={JSON.stringify(query.data)} access={query.data} save={save} />;
}

/** The contract's messages by field, as `allowed.0.cidr` names them: from the form's own check or the server. */
function errorsByField(issues: Record<string, string>) {
  const rows: (EntryErrors | undefined)[] = [];
  for (const [field, message] of Object.entries(issues)) {
    const match = /^allowed\.(\d+)\.(cidr|description)$/.exec(field);
    if (match) rows[Number(match[1])] = { ...rows[Number(match[1])], [match[2]!]: message };
  }
  return { rows, list: issues.allowed ?? issues.allow_anywhere };
}

function NetworkAccessForm({ access, save }: { access: NetworkAccessResponse; save: ReturnType<typeof useSaveNetworkAccess> }) {
  // A staff member's view shows the list as it is, unchangeable, and says why.
  const readOnly = useReadOnlyView();
  const [anywhere, setAnywhere] = useState(access.allow_anywhere);
  const [entries, setEntries] = useState<NetworkAccessEntryInput[]>(access.allowed);
  const [issues, setIssues] = useState<Record<string, string>>({});
  const address = useClientAddress({ enabled: !readOnly });
  const request: NetworkAccessRequest = { allow_anywhere: anywhere, allowed: entries };
  const changed = anywhere !== access.allow_anywhere || JSON.stringify(entries) !== JSON.stringify(access.allowed);
  const errors = errorsByField(issues);

  const submit = () => {
    const checked = networkAccessSchema.safeParse(request);
    if (!checked.success) {
      setIssues(Object.fromEntries(checked.error.issues.map((issue) => [issue.path.join('.'), issue.message])));
      return;
    }
    setIssues({});
    save.mutate(request, {
      onSuccess: () => notifySuccess(NETWORK_ACCESS_MESSAGES.saved),
      onError: (error) => {
        if (error instanceof ApiError) setIssues(error.fieldErrors);
      },
    });
  };

  return (
    <Stack gap="sm">
      <Text fz="sm" c="dimmed">
        Who may reach this cluster&apos;s SQL endpoint, Kumo Manager and Web Portal. Other addresses are refused.
      </Text>
      <Radio.Group
        label="Allow connections from"
        value={anywhere ? 'ANYWHERE' : 'LIST'}
        onChange={(value) => {
          setAnywhere(value === 'ANYWHERE');
          if (value === 'LIST' && entries.length === 0) setEntries([{ cidr: '', description: '' }]);
        }}
      >
        <Group gap="lg" mt="xs">
          <Radio value="ANYWHERE" label="Anywhere" disabled={readOnly} />
          <Radio value="LIST" label="Only these addresses" disabled={readOnly} />
        </Group>
      </Radio.Group>
      {anywhere ? (
        <Alert color="yellow" variant="light" role="note">
          <Text fz="sm">{NETWORK_ACCESS_MESSAGES.anywhereWarning}</Text>
        </Alert>
      ) : (
        <NetworkAccessEditor
          entries={entries}
          onChange={setEntries}
          errors={errors.rows}
          listError={errors.list}
          clientAddress={address.data?.client_address}
          disabled={readOnly || save.isPending}
        />
      )}
      {access.updated_at && (
        <Text fz="xs" c="dimmed">
          Last changed {formatDateTime(access.updated_at)}
          {access.updated_by ? ` by ${access.updated_by}` : ''}.
        </Text>
      )}
      {save.isError && !(save.error instanceof ApiError && Object.keys(save.error.fieldErrors).length > 0) && (
        <ErrorAlert error={save.error} />
      )}
      {readOnly ? (
        <Text fz="sm" c="dimmed">
          {READ_ONLY_VIEW_REASON}
        </Text>
      ) : (
        <Group justify="flex-end">
          <Button onClick={submit} loading={save.isPending} disabled={!changed}>
            Save network access
          </Button>
        </Group>
      )}
    </Stack>
  );
}
