import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi } from '../../../../test/api';
import { saveTokens } from '../../../lib/session';
import { useNodeDetails } from './customer-tabs';
import { customerKeys } from './keys';

const USER_ID = '0b0e6c1a-1d2e-4f3a-8b4c-5d6e7f8a9b0c';
const DEPLOYMENT_ID = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';

afterEach(() => vi.unstubAllGlobals());

describe("a customer's queries", () => {
  it("a cluster's node details are refreshed with the rest of the customer after an approved action", async () => {
    saveTokens('jwt', 'refresh');
    const api = mockApi({ [`GET /api/admin/node-details-view/${DEPLOYMENT_ID}`]: () => jsonResponse(200, []) });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useNodeDetails(USER_ID, DEPLOYMENT_ID), { wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));

    // What an approved four-eyes action invalidates (useAuthenticateAdminAction).
    await queryClient.invalidateQueries({ queryKey: customerKeys.customer(USER_ID) });
    await waitFor(() => expect(api.fetchMock).toHaveBeenCalledTimes(2));
  });
});
