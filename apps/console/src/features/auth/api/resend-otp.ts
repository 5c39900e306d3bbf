import { useMutation } from '@tanstack/react-query';
import type { OtpSentResponse, ResendOtpRequest } from '@kumo/contract';
import { api } from '../../../lib/api-client';

export function resendOtp(request: ResendOtpRequest): Promise<OtpSentResponse> {
  return api.post('/api/user/resend-otp', request);
}

export function useResendOtp() {
  return useMutation({ mutationFn: resendOtp });
}
