import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { managerTicket, managerTicketKey, readManagerTicket, withManagerTicket, withTicket } from './manager-ticket.js';

const secret = 'a-server-secret-of-enough-length-for-the-tickets';
const now = new Date('2026-03-01T10:00:00.000Z');
const ticket = {
  deploymentId: '0b7c5e84-1234-4b1c-9d7e-0123456789ab',
  holder: 'f1e2d3c4-0000-4000-8000-00000000abcd',
  expiresAt: new Date(now.getTime() + 60_000),
};

/** How an address took its ticket before: parsed, the parameter set, written back. */
function slowWithTicket(url: string, value: string): string {
  const address = new URL(url);
  address.searchParams.set('sso', value);
  return address.toString();
}

describe('manager tickets', () => {
  it('signs the same ticket with the secret or its prepared key, as JSON of { d, s, e } with an HMAC of it', () => {
    const byKey = managerTicket(managerTicketKey(secret), ticket);
    expect(byKey).toBe(managerTicket(secret, ticket));
    const [claims, mac] = byKey.split('.');
    expect(Buffer.from(claims!, 'base64url').toString()).toBe(
      JSON.stringify({ d: ticket.deploymentId, s: ticket.holder, e: ticket.expiresAt.getTime() }),
    );
    expect(mac).toBe(createHmac('sha256', secret).update(`kumo-sso|${claims}`).digest('base64url'));
    expect(readManagerTicket(secret, byKey, now)).toEqual(ticket);
    expect(readManagerTicket(secret, byKey, ticket.expiresAt)).toBeNull();
    expect(readManagerTicket('another-secret-of-enough-length-for-the-tickets', byKey, now)).toBeNull();
  });

  it.each([
    'https://manager.example.com/',
    'https://manager.example.com',
    'http://127.0.0.1:8080/sim/manager/',
    'https://Manager.Example.com:443/a b/?x=1&y=two%20words',
    'https://manager.example.com/?sso=old&x=1&sso=older',
    'https://manager.example.com/page#section',
    'https://manager.example.com/?x=1#sso=kept',
  ])('puts the ticket into %s as parsing the address would', (url) => {
    const value = managerTicket(secret, ticket);
    // Twice: the second time from the address's remembered parts.
    expect(withTicket(url, value)).toBe(slowWithTicket(url, value));
    expect(withTicket(url, value)).toBe(slowWithTicket(url, value));
    expect(withManagerTicket(url, secret, ticket)).toBe(slowWithTicket(url, value));
  });

  it('writes any ticket into any address as parsing the address would', () => {
    fc.assert(
      fc.property(
        fc.webUrl({ withQueryParameters: true, withFragments: true }),
        fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9_.-]+$/)),
        (url, value) => {
          expect(withTicket(url, value)).toBe(slowWithTicket(url, value));
        },
      ),
    );
  });
});
