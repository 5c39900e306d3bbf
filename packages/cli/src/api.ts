/**
 * The portal's API, typed by the OpenAPI document (`generated/openapi.ts`, written from docs/openapi.json at build time):
 * a renamed path, parameter or field breaks the build of the command line, not a user's script.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './generated/openapi.js';
import { ApiError, CliError, EXIT } from './errors.js';

export type KumoClient = Client<paths>;
export type Schemas = components['schemas'];

/** The dated API version these types were made from: every call asks for it, so a newer portal answers the same way. */
export const API_VERSION: components['parameters']['KumoVersion'] = '2026-11-29';
export const CLI_VERSION = '1.4.0';
/** A call that has not answered by then is given up as unreachable. */
const TIMEOUT_MS = 60_000;

export interface ClientOptions {
  apiUrl: string;
  token: string;
  fetch?: typeof fetch;
}

export function apiClient({ apiUrl, token, fetch: fetchImpl = globalThis.fetch }: ClientOptions): KumoClient {
  const client = createClient<paths>({
    baseUrl: apiUrl,
    headers: { authorization: `Bearer ${token}`, 'kumo-version': API_VERSION, 'user-agent': `kumo-cli/${CLI_VERSION}` },
    fetch: (request: Request) => fetchImpl(request, { signal: AbortSignal.timeout(TIMEOUT_MS) }),
  });
  client.use({
    onError({ error }) {
      throw unreachable(apiUrl, error);
    },
  });
  return client;
}

function unreachable(apiUrl: string, error: unknown): CliError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const name = (error as { name?: string }).name;
  const why =
    name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000} s` : (cause?.code ?? cause?.message ?? (error as Error).message);
  return new CliError(`cannot reach the portal at ${apiUrl} (${why}); check --api-url or KUMO_API_URL`, EXIT.network);
}

interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The answer's data, or an ApiError with the portal's message, request id and Retry-After. */
export async function answer<T>(pending: Promise<Outcome<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (response.ok) return data as T;
  throw apiErrorOf(response, error);
}

export function apiErrorOf(response: Response, body: unknown): ApiError {
  const details = (body as { errorDetails?: { error_message?: unknown; error_code?: unknown; request_id?: unknown } } | undefined)
    ?.errorDetails;
  const fields = (body as { field_errors?: Record<string, unknown> } | undefined)?.field_errors;
  const requestId = stringOf(details?.request_id) ?? response.headers.get('request-id') ?? undefined;
  const retry = Number(response.headers.get('retry-after') ?? NaN);
  let message = stringOf(details?.error_message) ?? `the portal answered ${response.status} ${response.statusText}`.trim();
  const fieldText = Object.entries(fields ?? {})
    .filter(([, text]) => String(text) !== message)
    .map(([field, text]) => `${field}: ${String(text)}`)
    .join('; ');
  if (fieldText && !message.includes(fieldText)) message = `${message} (${fieldText})`;
  return new ApiError(
    response.status,
    message,
    stringOf(details?.error_code),
    requestId,
    Number.isFinite(retry) && retry >= 0 ? retry : undefined,
  );
}

const stringOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
