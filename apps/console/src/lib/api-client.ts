import {
  HEADERS,
  MESSAGES,
  isErrorResponse,
  type BodyEndpoints,
  type DeletePath,
  type ErrorCode,
  type GetEndpoints,
  type GetPath,
  type PatchPath,
  type PostPath,
  type PutPath,
  type RequestOf,
  type ResponseOf,
} from '@kumo/contract';
import { ApiError, type TransportFailure } from './api-error';
import { endSession, getSession, saveTokens } from './session';
import { canRenewInteractively, isSessionExpired, waitForRenewedSession } from './session-expiry';
import { takeEarlyRead } from './early-reads';
import { browserTimeZone } from './time-zone';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type QueryValue = string | number | boolean | undefined;

export interface RequestOptions {
  method?: Method;
  body?: unknown;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** Sends the stored refresh token in a Refresh-Token header, read when the request leaves (account switching). */
  withRefreshToken?: boolean;
  /** 'blob' for files (PDF receipts): a successful body is handed over as it came. */
  responseType?: 'json' | 'blob';
  signal?: AbortSignal;
  /**
   * Sent with this access token, once and as it is: no renewal, no retry, and its failure ends no session. For the
   * calls made for a session that is ending (the report tool's logout).
   */
  token?: string;
}

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

const REFRESH_PATH = '/api/user/refresh-token';
const USER_DETAIL_PATH = '/api/user/detail';
const TOKEN_EXPIRED: ErrorCode = 'TOKEN_EXPIRED';
const ROLE_MAPPING_NOT_FOUND: ErrorCode = 'ROLE_MAPPING_NOT_FOUND';
const XSRF_INVALID: ErrorCode = 'XSRF_INVALID';
const XSRF_COOKIE = 'XSRF-TOKEN';
const XSRF_HEADER = 'X-XSRF-TOKEN';

/** One refresh shared by every call that hit an expired token while it runs. */
let pendingRefresh: Promise<boolean> | null = null;
/** One reload of the XSRF cookie shared by every call the server refused for it. */
let pendingXsrf: Promise<boolean> | null = null;

/**
 * The one way the console calls the API: adds the bearer token, a correlation id, the user's time
 * zone and, on state-changing calls, the XSRF token; resolves with the data on 2xx and rejects with an
 * ApiError carrying the error body otherwise. An expired access token is refreshed once and the call
 * retried; a refused XSRF token is re-issued once and the call retried.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  if (options.token !== undefined) return answerOf(await send(path, options, options.token), options);
  const token = getSession().jwtToken;
  let sentWith = token;
  // Only a call's first try may take an answer read early (lib/early-reads.ts): a retry asks the API again.
  let response = await send(path, options, sentWith, true);

  if (response.status === 401 && token && (await errorCode(response)) === TOKEN_EXPIRED) {
    if (!(await renewAccess(token))) {
      endSessionOf(token);
      throw ApiError.fromResponse(401, await readJson(response));
    }
    sentWith = getSession().jwtToken;
    response = await send(path, options, sentWith);
  }

  if (response.status === 403 && changesState(options) && (await errorCode(response)) === XSRF_INVALID && (await reissueXsrf())) {
    sentWith = getSession().jwtToken;
    response = await send(path, options, sentWith);
  }

  try {
    return await answerOf<T>(response, options);
  } catch (error) {
    if (error instanceof ApiError && endsSession(error)) endSessionOf(sentWith);
    throw error;
  }
}

/** The data of a 2xx answer, or an ApiError carrying the error body. */
async function answerOf<T>(response: Response, options: RequestOptions): Promise<ApiResponse<T>> {
  if (response.ok && options.responseType === 'blob') return { data: (await response.blob()) as T, headers: response.headers };
  const payload = await readJson(response);
  if (response.ok) return { data: payload as T, headers: response.headers };
  throw ApiError.fromResponse(response.status, payload);
}

/**
 * Ends the session a call was made with, unless another call ended it first: calls failing together must not
 * end a customer view and then the staff member's own session behind it.
 */
function endSessionOf(token: string | null): void {
  if (getSession().jwtToken === token) endSession();
}

/**
 * A valid access token again: another call may already have renewed the one this call was sent with;
 * otherwise the refresh token is used, and when that fails too a staff member signs in again.
 */
async function renewAccess(expiredToken: string): Promise<boolean> {
  if (getSession().jwtToken !== expiredToken) return true;
  if (!isSessionExpired() && (await refreshTokens())) return true;
  return canRenewInteractively() && waitForRenewedSession();
}

type CallOptions = Omit<RequestOptions, 'method' | 'body'>;
/** The body argument: optional for calls that take none. */
type BodyArgs<M extends keyof BodyEndpoints, P extends keyof BodyEndpoints[M]> =
  RequestOf<M, P> extends undefined ? [body?: undefined, options?: CallOptions] : [body: RequestOf<M, P>, options?: CallOptions];

function call<M extends keyof BodyEndpoints, P extends keyof BodyEndpoints[M] & string>(method: M, path: P, args: BodyArgs<M, P>) {
  const [body, options] = args;
  return apiRequest<ResponseOf<M, P>>(path, { ...options, method, body: body ?? (method === 'DELETE' ? undefined : {}) }).then(
    (r) => r.data,
  );
}

/**
 * Typed by path from the contract's endpoint map (packages/contract/src/endpoints.ts): the response, and the
 * body a call must send, follow from the path; a path the map does not know does not compile.
 */
export const api = {
  get: <P extends GetPath>(path: P, options?: CallOptions) =>
    apiRequest<GetEndpoints[P]>(path, { ...options, method: 'GET' }).then((r) => r.data),
  post: <P extends PostPath>(path: P, ...args: BodyArgs<'POST', P>) => call('POST', path, args),
  put: <P extends PutPath>(path: P, ...args: BodyArgs<'PUT', P>) => call('PUT', path, args),
  patch: <P extends PatchPath>(path: P, ...args: BodyArgs<'PATCH', P>) => call('PATCH', path, args),
  delete: <P extends DeletePath>(path: P, ...args: BodyArgs<'DELETE', P>) => call('DELETE', path, args),
};

/** Reads the new token pair the API returns in response headers. */
export function tokensFrom(headers: Headers): { jwtToken: string; refreshToken: string } | null {
  const jwtToken = headers.get(HEADERS.jwtToken);
  const refreshToken = headers.get(HEADERS.refreshToken);
  return jwtToken && refreshToken ? { jwtToken, refreshToken } : null;
}

function refreshTokens(): Promise<boolean> {
  pendingRefresh ??= runRefresh().finally(() => {
    pendingRefresh = null;
  });
  return pendingRefresh;
}

async function runRefresh(): Promise<boolean> {
  const refreshToken = getSession().refreshToken;
  if (!refreshToken) return false;
  try {
    const response = await send(REFRESH_PATH, { method: 'POST', body: { refresh_token: refreshToken } }, null);
    const tokens = response.ok ? tokensFrom(response.headers) : null;
    if (!tokens) return false;
    saveTokens(tokens.jwtToken, tokens.refreshToken);
    return true;
  } catch {
    return false;
  }
}

/** The user detail call sets a fresh XSRF cookie bound to the session. */
function reissueXsrf(): Promise<boolean> {
  pendingXsrf ??= send(USER_DETAIL_PATH, { method: 'GET' }, getSession().jwtToken)
    .then((response) => response.ok)
    .catch(() => false)
    .finally(() => {
      pendingXsrf = null;
    });
  return pendingXsrf;
}

function changesState(options: RequestOptions): boolean {
  return (options.method ?? 'GET') !== 'GET';
}

/** The account behind the session is gone: nothing the user does next can succeed. */
function endsSession(error: ApiError): boolean {
  return error.code === ROLE_MAPPING_NOT_FOUND || error.message === MESSAGES.roleMappingNotFound;
}

async function send(path: string, options: RequestOptions, token: string | null, mayTakeEarlyRead = false): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers = new Headers(options.headers);
  headers.set('Accept', 'application/json');
  headers.set(HEADERS.correlationId, crypto.randomUUID());
  headers.set(HEADERS.userTimeZone, browserTimeZone());
  if (token) headers.set('Authorization', `Bearer ${token}`);
  if (options.withRefreshToken) headers.set('Refresh-Token', getSession().refreshToken ?? '');
  // Read at each send: a refresh, a switch or a re-issue may have replaced the cookie since the first try.
  const xsrf = changesState(options) ? readCookie(XSRF_COOKIE) : undefined;
  if (xsrf) headers.set(XSRF_HEADER, xsrf);
  if (options.body !== undefined) headers.set('Content-Type', 'application/json');

  const url = withQuery(path, options.query);
  const { protocol } = new URL(url, window.location.href);
  if (protocol !== 'http:' && protocol !== 'https:') throw ApiError.unsupportedProtocol(protocol);
  try {
    const early = mayTakeEarlyRead && method === 'GET' && options.headers === undefined ? takeEarlyRead(url, token) : undefined;
    return await (early ??
      fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
        credentials: 'same-origin',
      }));
  } catch (error) {
    throw ApiError.transportFailure(transportFailureOf(error, options.signal));
  }
}

/**
 * Why a sent call got no answer: the caller's signal gave up waiting (a time-out) or cancelled it, the browser aborted
 * it (leaving the page, stopping the load), or no answer came at all.
 */
function transportFailureOf(error: unknown, signal: AbortSignal | undefined): TransportFailure {
  const reason: unknown = signal?.aborted ? signal.reason : error;
  if (reason instanceof DOMException && reason.name === 'TimeoutError') return 'timeout';
  if (signal?.aborted) return 'cancelled';
  if (error instanceof DOMException && error.name === 'AbortError') return 'aborted';
  return 'networkError';
}

function withQuery(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

async function errorCode(response: Response): Promise<string | undefined> {
  const body = await readJson(response.clone());
  return isErrorResponse(body) ? body.errorDetails.error_code : undefined;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function readCookie(name: string): string | undefined {
  const entry = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return entry ? decodeURIComponent(entry.slice(name.length + 1)) : undefined;
}
