/** A webhook endpoint for tests: a node:http server on 127.0.0.1 that verifies each delivery's signature as a customer would. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookEventBody } from '@kumo/contract';

export interface Received {
  body: WebhookEventBody;
  raw: string;
  signature: string;
  /** Whether the signature matched the body under the secret the receiver was given. */
  verified: boolean;
  /** The signature's timestamp, in unix seconds. */
  t: number;
}

/** What a customer's endpoint does with `Kumo-Signature: t=…,v1=…`: recompute the HMAC of `${t}.${body}` and compare. */
export function verifySignature(secret: string, raw: string, header: string): { verified: boolean; t: number } {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  const expected = createHmac('sha256', secret).update(`${parts.t}.${raw}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return { verified: given.length === expected.length && timingSafeEqual(given, expected), t };
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The statuses to answer with, in turn; 200 once they run out. */
  answers: number[];
  secret: string;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', received: [], answers: [], secret: '', close: async () => {} };
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => {
      const signature = String(request.headers['kumo-signature'] ?? '');
      receiver.received.push({
        body: JSON.parse(raw) as WebhookEventBody,
        raw,
        signature,
        ...verifySignature(receiver.secret, raw, signature),
      });
      response.statusCode = receiver.answers.shift() ?? 200;
      response.end(response.statusCode === 200 ? 'ok' : 'try later');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/kumo`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}
