import { useMutation } from '@tanstack/react-query';
import type { LoginRequest, OtpSentResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';

export function login(request: LoginRequest): Promise<OtpSentResponse> {
  return api.post('/api/user/login', request);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
