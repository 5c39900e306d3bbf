/**
 * The single-sign-on ticket on a cluster's Kumo Manager and Web Portal addresses: signed with the server secret,
 * naming the deployment and who it was issued to (a staff member, or the customer's account), valid until its expiry. Staff get a 60-second one from
 * Open Manager; a customer's cluster page carries one in its links. The simulated cloud's pages require it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const MANAGER_TICKET_PARAM = 'sso';
/** Open Manager's ticket: used at once, in the window it opens. */
export const OPEN_MANAGER_TICKET_SECONDS = 60;
/** The links of a customer's cluster page: re-issued each time the page reads the cluster. */
export const CLUSTER_LINK_TICKET_SECONDS = 15 * 60;

export interface ManagerTicket {
  deploymentId: string;
  /** The staff member's user id (Open Manager), or the customer's account id (the cluster page's links). */
  holder: string;
  expiresAt: Date;
}

const signature = (secret: string, claims: string) => createHmac('sha256', secret).update(`kumo-sso|${claims}`).digest('base64url');

export function managerTicket(secret: string, ticket: ManagerTicket): string {
  const claims = Buffer.from(JSON.stringify({ d: ticket.deploymentId, s: ticket.holder, e: ticket.expiresAt.getTime() })).toString(
    'base64url',
  );
  return `${claims}.${signature(secret, claims)}`;
}

/** The address with a ticket in it (replacing one it had). */
export function withManagerTicket(url: string, secret: string, ticket: ManagerTicket): string {
  const address = new URL(url);
  address.searchParams.set(MANAGER_TICKET_PARAM, managerTicket(secret, ticket));
  return address.toString();
}

/** The ticket's content when it is genuine and still valid at `now`; null otherwise. */
export function readManagerTicket(secret: string, ticket: string | undefined, now: Date): ManagerTicket | null {
  const [claims, mac] = (ticket ?? '').split('.');
  if (!claims || !mac) return null;
  const expected = Buffer.from(signature(secret, claims));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const { d, s, e } = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { d?: unknown; s?: unknown; e?: unknown };
    if (typeof d !== 'string' || typeof s !== 'string' || typeof e !== 'number' || e <= now.getTime()) return null;
    return { deploymentId: d, holder: s, expiresAt: new Date(e) };
  } catch {
    return null;
  }
}
