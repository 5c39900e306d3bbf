import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import {
  UI_TIMING,
  type CreateWebhookRequest,
  type CreatedWebhook,
  type MessageResponse,
  type Webhook,
  type WebhookTestResponse,
} from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { usersKeys } from './keys';

const webhooksQueryKey = usersKeys.webhooks();

/** A delivery not tried yet is sent within seconds, so the list looks again soon; a retry waits at least 30 s. */
const FIRST_ATTEMPT_READING_MS = 3_000;

export function fetchWebhooks(signal?: AbortSignal): Promise<Webhook[]> {
  return api.get('/api/account/webhooks', { signal });
}

/** When to read the list again: soon while a delivery awaits its first attempt, now and then while one is retried, else never. */
export function nextWebhooksReading(webhooks: Webhook[] | undefined): number | false {
  const pending = (webhooks ?? []).flatMap((webhook) => webhook.deliveries).filter((delivery) => delivery.state === 'PENDING');
  if (pending.some((delivery) => delivery.attempts.length === 0)) return FIRST_ATTEMPT_READING_MS;
  return pending.length > 0 ? UI_TIMING.pollingMs : false;
}

/** The account's webhook endpoints with their last deliveries; read again while a delivery is on its way. */
export const webhooksQuery = queryOptions({
  queryKey: webhooksQueryKey,
  queryFn: ({ signal }) => fetchWebhooks(signal),
  refetchInterval: (query) => nextWebhooksReading(query.state.data),
});

export function useWebhooks() {
  return useQuery(webhooksQuery);
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateWebhookRequest): Promise<CreatedWebhook> => api.post('/api/account/webhooks', request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey, exact: true }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string): Promise<MessageResponse> => api.delete(`/api/account/webhooks/${encodeURIComponent(webhookId)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey, exact: true }),
  });
}

export function useSendTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string): Promise<WebhookTestResponse> =>
      api.post(`/api/account/webhooks/${encodeURIComponent(webhookId)}/test`),
    // The test delivery joins the list at once, and the list then follows it until it is sent.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey, exact: true }),
  });
}
