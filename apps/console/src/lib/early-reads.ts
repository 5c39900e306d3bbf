import { HEADERS } from '@kumo/contract';
import { browserTimeZone } from './time-zone';

/** The reads every signed-in screen starts with: the person, the bell and the help links. */
const SHELL_READS = ['/api/user/detail', '/api/user/notifications?page=0&size=10', '/api/saas-common/help-document-links'];

/** The first reads of the pages a signed-in person most often opens the console on, by the start of their address. */
const PAGE_READS: [prefix: string, urls: string[]][] = [
  ['/clusters', ['/api/cluster/view']],
  ['/subscriptions', ['/api/subscription/list']],
  ['/users', ['/api/account/users', '/api/account/invitations']],
];
const HOME_READS = ['/api/subscription/list', '/api/cluster/view', '/api/subscription/consumption/overview'];

/** An answer waits this long for the screen that asked for it; after that the screen's own read is fresher. */
const KEPT_MS = 10_000;

interface EarlyRead {
  token: string;
  response: Promise<Response>;
  startedAt: number;
}

const started = new Map<string, EarlyRead>();

/**
 * Sends the first screen's reads while its code is still downloading. Left to the screen, each would leave only once
 * every module had arrived and the page had rendered: on a slow phone network, a second or more later. The answers
 * are handed, once each, to the API client's identical read (takeEarlyRead), which treats them as its own.
 * The headers are the client's (lib/api-client.ts), written here so the sign-in screen's code stays without it.
 */
export function startEarlyReads(pathname: string, token: string): void {
  const pageReads = pathname === '/' ? HOME_READS : (PAGE_READS.find(([prefix]) => pathname.startsWith(prefix))?.[1] ?? null);
  if (!pageReads) return;
  const timeZone = browserTimeZone();
  for (const url of [...SHELL_READS, ...pageReads]) {
    const headers = {
      Accept: 'application/json',
      Authorization: `Bearer ${token}`,
      [HEADERS.correlationId]: crypto.randomUUID(),
      [HEADERS.userTimeZone]: timeZone,
    };
    const response = fetch(url, { headers, credentials: 'same-origin' });
    // An unclaimed failure is nobody's to report: the screen's own read, sent when this one is not taken, reports it.
    response.catch(() => undefined);
    started.set(url, { token, response, startedAt: Date.now() });
  }
}

/** The early answer to a GET of `url` sent with `token`, if one was started for it and is still fresh; once only. */
export function takeEarlyRead(url: string, token: string | null): Promise<Response> | undefined {
  const read = started.get(url);
  if (!read) return undefined;
  started.delete(url);
  return read.token === token && Date.now() - read.startedAt <= KEPT_MS ? read.response : undefined;
}
