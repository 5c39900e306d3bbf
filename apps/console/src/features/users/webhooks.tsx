import { useState } from 'react';
import { Button, Card, Group, Modal, Stack, Text } from '@mantine/core';
import { WEBHOOK_MESSAGES, type Webhook } from '@kumo/contract';
import { formatDateTime } from '../../lib/dates';
import { useReadOnlyView } from '../../lib/read-only-view';
import { CardLoader } from '../../components/card-states';
import { ErrorAlert } from '../../components/error-alert';
import { notifyError, notifySuccess } from '../../components/notify';
import { useDeleteWebhook, useSendTestWebhook, useWebhooks } from './api/webhooks';
import { lazyChunk } from '../../lib/load-chunk';
import { LoadedWhenOpened } from '../../components/loaded-when-opened';
import { WebhookDeliveries } from './webhook-deliveries';
import { WEBHOOK_EVENT_LABELS } from './webhook-events';

// The add form (its checks and schemas) loads when first opened, not with the page.
const AddWebhookDialog = lazyChunk(() => import('./add-webhook-dialog').then((m) => ({ default: m.AddWebhookDialog })));

/**
 * Users → Webhooks: the account's endpoints its events are sent to, with their last deliveries. A staff member's
 * view lists them without Add, Send test event or Delete: the server refuses those (READ_ONLY_VIEW).
 */
export function Webhooks() {
  const readOnly = useReadOnlyView();
  const query = useWebhooks();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const webhooks = query.data ?? [];

  return (
    <Card mt="lg" component="section" aria-labelledby="webhooks-title">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" gap="sm">
          <div>
            <Text id="webhooks-title" fw={600}>
              Webhooks
            </Text>
            <Text fz="sm" c="dimmed">
              Webhooks send this account&apos;s events (cluster status changes, budget alerts, top-ups, expiring credits) to an HTTPS
              endpoint of yours, each signed with the endpoint&apos;s secret and retried for a day until it is accepted.
            </Text>
          </div>
          {!readOnly && <Button onClick={() => setAdding(true)}>Add endpoint</Button>}
        </Group>
        {query.isPending && <CardLoader label="Loading the webhooks" />}
        {query.isError && <ErrorAlert error={query.error} />}
        {query.isSuccess && webhooks.length === 0 && (
          <Text fz="sm" c="dimmed">
            This account sends its events to no endpoint yet.
          </Text>
        )}
        {webhooks.length > 0 && (
          <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {webhooks.map((webhook) => (
              <WebhookRow key={webhook.webhook_id} webhook={webhook} readOnly={readOnly} onDelete={() => setDeleting(webhook)} />
            ))}
          </Stack>
        )}
      </Stack>
      <LoadedWhenOpened opened={adding}>
        <AddWebhookDialog opened={adding} onClose={() => setAdding(false)} />
      </LoadedWhenOpened>
      <DeleteWebhookDialog webhook={deleting} onClose={() => setDeleting(null)} />
    </Card>
  );
}

function WebhookRow({ webhook, readOnly, onDelete }: { webhook: Webhook; readOnly: boolean; onDelete: () => void }) {
  const sendTest = useSendTestWebhook();
  const test = () =>
    sendTest.mutate(webhook.webhook_id, {
      onSuccess: () => notifySuccess(WEBHOOK_MESSAGES.testQueued),
      onError: (error) => notifyError(error),
    });

  return (
    <Stack
      component="li"
      gap="xs"
      p="sm"
      aria-label={`Webhook ${webhook.url}`}
      style={{ borderRadius: 'var(--mantine-radius-md)', border: '1px solid var(--mantine-color-default-border)' }}
    >
      <Text fw={500} fz="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
        {webhook.url}
      </Text>
      <Text fz="xs" c="dimmed">
        {webhook.events.map((type) => WEBHOOK_EVENT_LABELS[type]).join(' · ')}
      </Text>
      <Text fz="xs" c="dimmed">
        Added {formatDateTime(webhook.created_at)}
      </Text>
      <WebhookDeliveries webhook={webhook} titleId={`webhook-deliveries-${webhook.webhook_id}`} />
      {!readOnly && (
        <Group gap="xs" justify="flex-end">
          <Button
            size="compact-sm"
            variant="default"
            onClick={test}
            loading={sendTest.isPending}
            aria-label={`Send test event to ${webhook.url}`}
          >
            Send test event
          </Button>
          <Button size="compact-sm" variant="subtle" color="red" onClick={onDelete} aria-label={`Delete the webhook ${webhook.url}`}>
            Delete
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** Asks before deleting; a refusal stays in the dialog, the result is a toast once it closes. */
function DeleteWebhookDialog({ webhook, onClose }: { webhook: Webhook | null; onClose: () => void }) {
  const remove = useDeleteWebhook();
  const close = () => {
    remove.reset();
    onClose();
  };
  const confirm = (target: Webhook) =>
    remove.mutate(target.webhook_id, {
      onSuccess: ({ message }) => {
        notifySuccess(message);
        close();
      },
    });

  return (
    <Modal opened={webhook !== null} onClose={close} title="Delete webhook" centered closeOnClickOutside={!remove.isPending}>
      {webhook && (
        <Stack gap="md">
          <Text style={{ overflowWrap: 'anywhere' }}>
            Delete the endpoint <strong>{webhook.url}</strong>? Nothing more is sent to it, deliveries still being retried stop, and its
            delivery history goes with it.
          </Text>
          {remove.isError && <ErrorAlert error={remove.error} />}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button color="red" onClick={() => confirm(webhook)} loading={remove.isPending}>
              Delete
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
