import { useMutation } from '@tanstack/react-query';
import type { OtpSentResponse, RegisterRequest } from '@kumo/contract';
import { api } from '../../../lib/api-client';

export function register(request: RegisterRequest): Promise<OtpSentResponse> {
  return api.post('/api/user/register', request);
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
