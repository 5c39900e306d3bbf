import type { LoginRequest, OtpSentResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';

/** Sends a one-time password to the e-mail. A plain call, not a mutation hook: the e-mail step is on /login's first screen, ahead of the query cache. */
export function login(request: LoginRequest): Promise<OtpSentResponse> {
  return api.post('/api/user/login', request);
}
