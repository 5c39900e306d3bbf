import type { ApiToken, CreatedApiToken } from '@kumo/contract';
import type { ApiTokenValue, CreatedApiTokenValue } from './api-tokens.service.js';

function fieldsOf(token: ApiTokenValue) {
  return {
    token_id: token.id,
    name: token.name,
    scope: token.scope as ApiToken['scope'],
    prefix: token.prefix,
    created_at: token.createdAt.toISOString(),
    expires_at: token.expiresAt?.toISOString() ?? null,
    allowed_ips: token.allowedIps,
  };
}

export const toApiTokenWire = (token: ApiTokenValue): ApiToken => ({
  ...fieldsOf(token),
  last_used_at: token.lastUsedAt?.toISOString() ?? null,
  last_used_ip: token.lastUsedIp,
});

export const toCreatedApiTokenWire = (token: CreatedApiTokenValue): CreatedApiToken => ({ ...fieldsOf(token), token: token.secret });
