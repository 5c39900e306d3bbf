/**
 * The single-sign-on ticket on a cluster's Kumo Manager and Web Portal addresses: signed with the server secret,
 * naming the deployment and who it was issued to (a staff member, or the customer's account), valid until its expiry. Staff get a 60-second one from
 * Open Manager; a customer's cluster page carries one in its links. The simulated cloud's pages require it.
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

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

/** The server secret as the tickets' HMAC key: made once by a caller that signs many tickets, or the secret itself. */
export type TicketKey = string | KeyObject;
export const managerTicketKey = (secret: string): KeyObject => createSecretKey(Buffer.from(secret, 'utf8'));

const signature = (key: TicketKey, claims: string) => createHmac('sha256', key).update(`kumo-sso|${claims}`).digest('base64url');

export function managerTicket(key: TicketKey, ticket: ManagerTicket): string {
  // The JSON of { d, s, e }, written out: the cluster list signs one ticket per online cluster on every poll.
  const json = `{"d":${JSON.stringify(ticket.deploymentId)},"s":${JSON.stringify(ticket.holder)},"e":${ticket.expiresAt.getTime()}}`;
  const claims = Buffer.from(json).toString('base64url');
  return `${claims}.${signature(key, claims)}`;
}

/** Stands for the ticket while an address is parsed once: a ticket (base64url and a dot) needs no escaping in a query. */
const PLACE = 'kumo-ticket-place';
const TICKET_CHARACTERS = /^[A-Za-z0-9_.-]*$/;
/** Each address's text before and after its ticket, as `URL` writes it; the addresses are few (one per cluster). */
const ticketPlaces = new Map<string, [string, string]>();
const TICKET_PLACES_KEPT = 4096;

function ticketPlace(url: string): [string, string] {
  let place = ticketPlaces.get(url);
  if (!place) {
    const address = new URL(url);
    address.searchParams.set(MANAGER_TICKET_PARAM, PLACE);
    const text = address.toString();
    const at = text.lastIndexOf(`${MANAGER_TICKET_PARAM}=${PLACE}`) + MANAGER_TICKET_PARAM.length + 1;
    place = [text.slice(0, at), text.slice(at + PLACE.length)];
    if (ticketPlaces.size >= TICKET_PLACES_KEPT) ticketPlaces.clear();
    ticketPlaces.set(url, place);
  }
  return place;
}

/** The address with the ticket in it (replacing one it had), as `URL` writes it. */
export function withTicket(url: string, ticket: string): string {
  if (!TICKET_CHARACTERS.test(ticket)) {
    const address = new URL(url);
    address.searchParams.set(MANAGER_TICKET_PARAM, ticket);
    return address.toString();
  }
  const [before, after] = ticketPlace(url);
  return `${before}${ticket}${after}`;
}

/** The address with a ticket in it (replacing one it had). */
export function withManagerTicket(url: string, key: TicketKey, ticket: ManagerTicket): string {
  return withTicket(url, managerTicket(key, ticket));
}

/** The ticket's content when it is genuine and still valid at `now`; null otherwise. */
export function readManagerTicket(secret: TicketKey, ticket: string | undefined, now: Date): ManagerTicket | null {
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
