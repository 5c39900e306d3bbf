import { Badge, Stack, Table, Text } from '@mantine/core';
import type { Webhook } from '@kumo/contract';
import { formatDateTime } from '../../lib/dates';
import stacked from '../../components/stacked-table.module.css';
import { deliveryStatus, lastAttemptText, webhookEventLabel } from './webhook-events';

/** An endpoint's last deliveries, newest first; on a phone each one is a card of named values. */
export function WebhookDeliveries({ webhook, titleId }: { webhook: Webhook; titleId: string }) {
  return (
    <Stack gap={4}>
      <Text fz="sm" fw={600} id={titleId}>
        Last deliveries
      </Text>
      {webhook.deliveries.length === 0 ? (
        <Text fz="sm" c="dimmed">
          Nothing has been sent to this endpoint yet.
        </Text>
      ) : (
        <Table fz="sm" verticalSpacing={4} aria-labelledby={titleId} className={stacked.table}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Event</Table.Th>
              <Table.Th scope="col">Time</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Last attempt</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {webhook.deliveries.map((delivery) => {
              const status = deliveryStatus(delivery);
              const answer = lastAttemptText(delivery);
              return (
                <Table.Tr key={delivery.event_id}>
                  <Table.Th scope="row" fw={500}>
                    {webhookEventLabel(delivery.type)}
                  </Table.Th>
                  <Table.Td data-label="Time" style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(delivery.created_at)}
                  </Table.Td>
                  <Table.Td data-label="Status">
                    <Badge color={status.color} variant="light">
                      {status.label}
                    </Badge>
                  </Table.Td>
                  <Table.Td data-label="Last attempt" style={{ overflowWrap: 'anywhere' }}>
                    {/* One block, so the stacked card keeps the answer and the next try together beside their label. */}
                    <div>
                      {answer ?? '—'}
                      {answer && delivery.next_attempt_at && (
                        <Text fz="xs" c="dimmed">
                          Next try {formatDateTime(delivery.next_attempt_at)}
                        </Text>
                      )}
                    </div>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
