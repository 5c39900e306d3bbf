import { useMutation } from '@tanstack/react-query';
import type { PurchaseRequest, PurchaseResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';

/** Opens a card checkout at the payment provider; the browser is then sent to redirect_url. */
export function purchaseCredit(request: PurchaseRequest): Promise<PurchaseResponse> {
  return api.post('/api/credit/purchase', request);
}

export function usePurchaseCredit() {
  return useMutation({ mutationFn: purchaseCredit });
}
