/**
 * One HTTP attempt at an endpoint: a POST of the signed body, no redirects followed, a time limit on the whole attempt
 * (connecting, sending, the answer to its last byte), and the destination checked by the socket's own address lookup
 * (and for an address written in the URL, before connecting).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { WEBHOOK_LIMITS, WEBHOOK_MESSAGES, WEBHOOK_SIGNATURE_HEADER } from '@kumo/contract';
import { guardedLookup, isPrivateAddress } from './destination.js';

export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export type Sender = (request: { url: string; body: string; signature: string; eventId: string }) => Promise<AttemptResult>;

/** The endpoint's answer is read only to see its status; a few bytes of it say why it failed. */
const ERROR_BODY_CHARS = 200;

export function createSender(options: { allowPrivate: boolean; timeoutMs?: number }): Sender {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_LIMITS.timeoutSeconds * 1000;
  return ({ url, body, signature, eventId }) => {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // Checked again here, not only when the endpoint was saved: a row saved under WEBHOOK_ALLOW_PRIVATE, or written
    // another way, never sends a signed event in clear text.
    if (!options.allowPrivate && target.protocol !== 'https:') {
      return Promise.resolve({ statusCode: null, error: WEBHOOK_MESSAGES.urlNotHttps, durationMs: 0 });
    }
    if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) {
      return Promise.resolve({ statusCode: null, error: WEBHOOK_MESSAGES.urlPrivate, durationMs: 0 });
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<AttemptResult>((resolveOnce) => {
      // The whole attempt ends by the limit, well inside the delivery's claim: an endpoint that trickles its answer
      // byte by byte, which an idle-socket timeout never stops, cannot outlive the claim and be sent twice.
      const limit = setTimeout(() => {
        resolve({ statusCode: null, error: `No answer within ${timeoutMs / 1000} s`, durationMs: elapsed() });
        request.destroy();
      }, timeoutMs);
      let settled = false;
      const resolve = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(limit);
        resolveOnce(result);
      };
      const request = send(
        target,
        {
          method: 'POST',
          lookup: guardedLookup(options.allowPrivate),
          timeout: timeoutMs,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'Kumo-Webhooks/1',
            [WEBHOOK_SIGNATURE_HEADER]: signature,
            'kumo-event-id': eventId,
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            if (text.length < ERROR_BODY_CHARS) text += chunk;
          });
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            const ok = status >= 200 && status < 300;
            resolve({
              statusCode: status,
              error: ok ? null : `HTTP ${status} ${text.slice(0, ERROR_BODY_CHARS)}`.trim(),
              durationMs: elapsed(),
            });
          });
          response.on('error', (error) =>
            resolve({ statusCode: status(response.statusCode), error: error.message, durationMs: elapsed() }),
          );
        },
      );
      request.on('timeout', () => request.destroy(new Error(`No answer within ${timeoutMs / 1000} s`)));
      request.on('error', (error) => resolve({ statusCode: null, error: error.message, durationMs: elapsed() }));
      request.end(body);
    });
  };
}

const status = (code: number | undefined) => code ?? null;
