import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_LIMITS } from '@kumo/contract';
import { CLAIM_MS } from './deliveries.js';
import { createSender } from './sender.js';

describe('one webhook attempt', () => {
  let server: Server;
  let url: string;
  const trickles: NodeJS.Timeout[] = [];

  beforeAll(async () => {
    // An endpoint that answers at once but sends its body a byte every 100 ms, for ever: never idle, never done.
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      trickles.push(setInterval(() => response.write('.'), 100));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    trickles.forEach(clearInterval);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('ends at its time limit however the endpoint trickles its answer', async () => {
    const send = createSender({ allowPrivate: true, timeoutMs: 600 });
    const result = await send({ url, body: '{}', signature: 't=1,v1=x', eventId: 'evt_trickle' });
    expect(result.statusCode).toBeNull();
    expect(result.error).toBe('No answer within 0.6 s');
    expect(result.durationMs).toBeGreaterThanOrEqual(550);
    expect(result.durationMs).toBeLessThan(1_500);
  });

  it('lasts at most the documented 10 s, well inside the claim that keeps a delivery from being sent twice', () => {
    expect(WEBHOOK_LIMITS.timeoutSeconds).toBe(10);
    expect(WEBHOOK_LIMITS.timeoutSeconds * 1000).toBeLessThan(CLAIM_MS / 2);
  });
});
