/**
 * The single-sign-on ticket for a cluster's Kumo Manager and Web Portal: signed with the server secret, naming the
 * deployment, the page it opens, the person it was issued to (a customer's person, or a staff member opening the
 * manager with the provider's access) and, for the manager, that person's access level on this cluster; valid for
 * a minute. It is issued only on request, per person, at the moment a window is opened; the addresses the cluster
 * list and details carry have no ticket and open nothing by themselves. Each ticket has its own id, so the page that
 * redeems it can let it in once (the simulated cloud's pages do, sim-ticket-uses.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { MANAGER_ACCESS_LEVELS, MANAGER_TICKET_PAGES, type ManagerAccessLevel, type ManagerTicketPage } from '@kumo/contract';

export const MANAGER_TICKET_PARAM = 'sso';
/** Every ticket is used at once, in the window it opens. */
export const MANAGER_TICKET_SECONDS = 60;

export const TICKET_PAGES = MANAGER_TICKET_PAGES;
export type TicketPage = ManagerTicketPage;

export interface ManagerTicket {
  /** Random, unique per ticket: what the page remembers once it let the ticket in. */
  id: string;
  deploymentId: string;
  /** The page it opens: a Web Portal ticket does not open the manager, nor the other way round. */
  page: TicketPage;
  holder: {
    /** A person of the customer's account, or a staff member (Open Manager, the provider's access). */
    kind: 'customer' | 'staff';
    userId: string;
    /** Shown by the page as who is signed in. */
    email: string;
  };
  /** The holder's level on this cluster's manager; a manager ticket without one opens nothing. */
  level?: ManagerAccessLevel;
  expiresAt: Date;
}

interface Claims {
  j: string;
  d: string;
  p: TicketPage;
  k: 'customer' | 'staff';
  u: string;
  m: string;
  l?: ManagerAccessLevel;
  e: number;
}

const signature = (secret: string, claims: string) => createHmac('sha256', secret).update(`kumo-sso|${claims}`).digest('base64url');

/** What the issuer says; the ticket's id is drawn when it is signed. */
export type TicketRequest = Omit<ManagerTicket, 'id'>;

export function managerTicket(secret: string, ticket: TicketRequest): string {
  const body: Claims = {
    j: randomBytes(16).toString('base64url'),
    d: ticket.deploymentId,
    p: ticket.page,
    k: ticket.holder.kind,
    u: ticket.holder.userId,
    m: ticket.holder.email,
    ...(ticket.level ? { l: ticket.level } : {}),
    e: ticket.expiresAt.getTime(),
  };
  const claims = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${claims}.${signature(secret, claims)}`;
}

/** The address with a ticket in it (replacing one it had). */
export function withManagerTicket(url: string, secret: string, ticket: TicketRequest): string {
  const address = new URL(url);
  address.searchParams.set(MANAGER_TICKET_PARAM, managerTicket(secret, ticket));
  return address.toString();
}

/**
 * Addresses already stripped of their ticket: a pure function's results, kept because the polled cluster list strips
 * the same few addresses on every answer and parsing a URL cost more than the rest of presenting a cluster.
 */
const shownAddresses = new Map<string, string>();
const SHOWN_ADDRESSES_KEPT = 10_000;

/** The address as the cluster list shows it: never with a ticket, so it grants nothing by itself. */
export function withoutManagerTicket(url: string): string {
  const known = shownAddresses.get(url);
  if (known !== undefined) return known;
  const address = new URL(url);
  address.searchParams.delete(MANAGER_TICKET_PARAM);
  const shown = address.toString();
  if (shownAddresses.size >= SHOWN_ADDRESSES_KEPT) shownAddresses.clear();
  shownAddresses.set(url, shown);
  return shown;
}

const isString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * The ticket's content when it is genuine, complete and still valid at `now`; null otherwise. A level that is not one
 * of the manager's is read as no level (the page then refuses it).
 */
export function readManagerTicket(secret: string, ticket: string | undefined, now: Date): ManagerTicket | null {
  const [claims, mac] = (ticket ?? '').split('.');
  if (!claims || !mac) return null;
  const expected = Buffer.from(signature(secret, claims));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const { j, d, p, k, u, m, l, e } = JSON.parse(Buffer.from(claims, 'base64url').toString()) as Partial<Record<keyof Claims, unknown>>;
    if (!isString(j) || !isString(d) || !isString(u) || !isString(m) || typeof e !== 'number' || e <= now.getTime()) return null;
    if (!(TICKET_PAGES as readonly unknown[]).includes(p) || (k !== 'customer' && k !== 'staff')) return null;
    const level = (MANAGER_ACCESS_LEVELS as readonly unknown[]).includes(l) ? (l as ManagerAccessLevel) : undefined;
    return {
      id: j,
      deploymentId: d,
      page: p as TicketPage,
      holder: { kind: k, userId: u, email: m },
      ...(level ? { level } : {}),
      expiresAt: new Date(e),
    };
  } catch {
    return null;
  }
}
