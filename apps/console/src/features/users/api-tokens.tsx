import { useState } from 'react';
import { Badge, Button, Card, Group, Modal, Stack, Text } from '@mantine/core';
import type { ApiToken } from '@kumo/contract';
import { formatDateTime } from '../../lib/dates';
import { useReadOnlyView } from '../../lib/read-only-view';
import { ErrorAlert } from '../../components/error-alert';
import { notifyError, notifySuccess } from '../../components/notify';
import { useApiTokens, useRevokeApiToken } from './api/api-tokens';
import { lazyChunk } from '../../lib/load-chunk';
import { LoadedWhenOpened } from '../../components/loaded-when-opened';

// The create form (its checks and schemas) loads when first opened, not with the page.
const CreateApiTokenDialog = lazyChunk(() => import('./create-api-token-dialog').then((m) => ({ default: m.CreateApiTokenDialog })));

/**
 * Users → API tokens: the signed-in person's tokens for scripts in this account, each acting as them within its
 * scope. A staff member's view lists nothing: tokens are a person's own and the server refuses them the list.
 */
export function ApiTokens() {
  const readOnly = useReadOnlyView();
  if (readOnly) return null;
  return <ApiTokensSection />;
}

function ApiTokensSection() {
  const query = useApiTokens();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  // When the list was read: a token past its expiry is marked expired (the server refuses it anyway).
  const [now] = useState(() => Date.now());
  const tokens = query.data ?? [];

  return (
    <Card mt="lg" component="section" aria-labelledby="api-tokens-title">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" gap="sm">
          <div>
            <Text id="api-tokens-title" fw={600}>
              API tokens
            </Text>
            <Text fz="sm" c="dimmed">
              Tokens let scripts call the Kumo Cloud API as you, in this account. A read token only reads; no token can invite or remove
              people, create tokens or delete a cluster.
            </Text>
          </div>
          <Button onClick={() => setCreating(true)}>Create token</Button>
        </Group>
        {query.isError && <ErrorAlert error={query.error} />}
        {query.isSuccess && tokens.length === 0 && (
          <Text fz="sm" c="dimmed">
            You have no API tokens in this account.
          </Text>
        )}
        {tokens.length > 0 && (
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {tokens.map((token) => (
              <TokenRow key={token.token_id} token={token} now={now} onRevoke={() => setRevoking(token)} />
            ))}
          </Stack>
        )}
      </Stack>
      <LoadedWhenOpened opened={creating}>
        <CreateApiTokenDialog opened={creating} onClose={() => setCreating(false)} />
      </LoadedWhenOpened>
      <RevokeTokenDialog token={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}

function TokenRow({ token, now, onRevoke }: { token: ApiToken; now: number; onRevoke: () => void }) {
  const expired = token.expires_at !== null && new Date(token.expires_at).getTime() <= now;
  return (
    <Stack
      component="li"
      gap={6}
      px="sm"
      py="xs"
      aria-label={`API token ${token.name}`}
      style={{ borderRadius: 'var(--mantine-radius-md)', border: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text fw={500} fz="sm" truncate="end">
          {token.name}
        </Text>
        <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
          {expired && (
            <Badge color="red" variant="light">
              Expired
            </Badge>
          )}
          <Badge color={token.scope === 'WRITE' ? 'orange' : 'gray'} variant="light">
            {token.scope === 'WRITE' ? 'Write' : 'Read'}
          </Badge>
        </Group>
      </Group>
      <Text fz="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
        {token.prefix}…
      </Text>
      <Text fz="xs" c="dimmed">
        Created {formatDateTime(token.created_at)} ·{' '}
        {token.expires_at ? `${expired ? 'Expired' : 'Expires'} ${formatDateTime(token.expires_at)}` : 'Never expires'}
      </Text>
      <Text fz="xs" c="dimmed">
        {token.last_used_at
          ? `Last used ${formatDateTime(token.last_used_at)} from ${token.last_used_ip ?? 'an unknown address'}`
          : 'Never used'}
        {token.allowed_ips.length > 0 && ` · Allowed from ${token.allowed_ips.join(', ')}`}
      </Text>
      <Group gap="xs" justify="flex-end">
        <Button size="compact-sm" variant="subtle" color="red" onClick={onRevoke} aria-label={`Revoke the API token ${token.name}`}>
          Revoke
        </Button>
      </Group>
    </Stack>
  );
}

function RevokeTokenDialog({ token, onClose }: { token: ApiToken | null; onClose: () => void }) {
  const revoke = useRevokeApiToken();

  const confirm = (target: ApiToken) =>
    revoke
      .mutateAsync(target.token_id)
      .then(({ message }) => notifySuccess(message))
      .catch((error: unknown) => notifyError(error))
      .finally(onClose);

  return (
    <Modal opened={token !== null} onClose={onClose} title="Revoke API token" centered closeOnClickOutside={!revoke.isPending}>
      {token && (
        <Stack gap="lg">
          <Text>
            Revoke <strong>{token.name}</strong>? Scripts using it are refused from their next call on. This cannot be undone.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={revoke.isPending}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void confirm(token)} loading={revoke.isPending}>
              Revoke
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
