import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import type { ApiToken, CreateApiTokenRequest, CreatedApiToken, MessageResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { usersKeys } from './keys';

const apiTokensQueryKey = usersKeys.apiTokens();

export function fetchApiTokens(signal?: AbortSignal): Promise<ApiToken[]> {
  return api.get('/api/user/api-tokens', { signal });
}

export const apiTokensQuery = queryOptions({ queryKey: apiTokensQueryKey, queryFn: ({ signal }) => fetchApiTokens(signal) });

/** The signed-in person's API tokens in this account, with their last use. */
export function useApiTokens() {
  return useQuery(apiTokensQuery);
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateApiTokenRequest): Promise<CreatedApiToken> => api.post('/api/user/api-tokens', request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQueryKey, exact: true }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string): Promise<MessageResponse> => api.delete(`/api/user/api-tokens/${encodeURIComponent(tokenId)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiTokensQueryKey, exact: true }),
  });
}
