import { vi } from 'vitest';

type Handler = (body: unknown, init: RequestInit | undefined) => Response | Promise<Response>;

/** The path part of what fetch was called with. */
export function pathOf(input: RequestInfo | URL): string {
  const url = input instanceof Request ? input.url : input.toString();
  return url.split('?')[0] ?? url;
}

/** The JSON body fetch was called with, if any. */
export function bodyOf(init: RequestInit | undefined): unknown {
  return typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

export function errorResponse(status: number, code: string, message: string): Response {
  return jsonResponse(status, { errorDetails: { error_code: code, error_message: message } });
}

/** Replaces fetch with handlers keyed by 'METHOD /path'; unknown calls fail the test loudly. */
export function mockApi(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${pathOf(input)}`;
    const handler = handlers[key];
    if (!handler) throw new Error(`Unexpected call: ${key}`);
    return handler(bodyOf(init), init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    /** Bodies sent to one endpoint, in order. */
    bodiesOf: (key: string): unknown[] =>
      fetchMock.mock.calls.filter(([input, init]) => `${init?.method ?? 'GET'} ${pathOf(input)}` === key).map(([, init]) => bodyOf(init)),
  };
}
