/**
 * The simulated cluster's own web pages: Kumo Manager and the Web Portal. They open only with a single-sign-on ticket
 * the portal issued for this cluster, this page and one person (a customer's person from the cluster's page, a staff
 * member from Open Manager), and the manager only for a ticket carrying a level that lets its holder in. They answer
 * only while the simulated cluster is online, like the real services on a stopped cluster. A ticket opens a page
 * once (sim-tickets.ts). Staff open them by a form post, customers by following the address: both are served. An address outside the cluster's network access list is
 * refused before anything else, as the cluster's own firewall would.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CLUSTER_MESSAGES, NETWORK_ACCESS_MESSAGES, type ErrorResponse, type ManagerAccessLevel } from '@kumo/contract';
import type { Clock } from '../../../clock.js';
import { escapeHtml } from '../../../lib/html.js';
import { stackNameFor } from '../cloud-provisioner.js';
import { MANAGER_TICKET_PARAM, TICKET_PAGES, readManagerTicket } from '../manager-ticket.js';
import { managerPage, page, portalPage, refusal } from './sim-page-content.js';
import type { SimTickets } from './sim-tickets.js';
import { SIM_PAGES_PREFIX, type SimulatedProvisioner } from './simulated-provisioner.js';

const params = z.object({ stackName: z.string().max(140), page: z.enum(TICKET_PAGES) });
const query = z.object({ [MANAGER_TICKET_PARAM]: z.string().max(2000).optional() });

export const SIM_PAGE_TEXTS = {
  signInRequired: 'This link has expired or is not valid. Open Kumo Manager or the Web Portal again from the cluster in the portal.',
  noLevel: 'This sign-in does not say your access level on this cluster. Open Kumo Manager again from the cluster in the portal.',
  noAdminAccess: CLUSTER_MESSAGES.managerNoAccess,
} as const;

export interface SimPages {
  cloud: SimulatedProvisioner;
  /** Verifies the pages' single-sign-on tickets. */
  secret: string;
  clock: Clock;
  tickets: SimTickets;
  /** The cluster's network access list: whether it answers this address (the clusters module's check). */
  allowsAddress: (deploymentId: string, address: string) => Promise<boolean>;
}

const STACK_PREFIX = stackNameFor('');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The cluster a stack name names (stacks are named after their cluster's id), if any. */
const clusterOfStack = (stackName: string) => {
  const id = stackName.slice(STACK_PREFIX.length);
  return stackName.startsWith(STACK_PREFIX) && UUID.test(id) ? id : undefined;
};
const DENIED: ErrorResponse = { errorDetails: { error_code: 'NETWORK_ACCESS_DENIED', error_message: NETWORK_ACCESS_MESSAGES.denied } };

export function simPagesRoutes({ cloud, secret, clock, tickets, allowsAddress }: SimPages) {
  async function serve(request: FastifyRequest, reply: FastifyReply) {
    const parsed = params.safeParse(request.params);
    if (!parsed.success) return reply.status(404).type('text/plain').send('Not found');
    const { stackName, page: which } = parsed.data;
    // The cluster's firewall comes first, as on a real cluster: an address outside its list reaches nothing.
    const clusterId = clusterOfStack(stackName);
    if (clusterId && !(await allowsAddress(clusterId, request.ip))) {
      return reply.status(403).header('cache-control', 'no-store').send(DENIED);
    }
    reply
      .header('cache-control', 'no-store')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
      .type('text/html; charset=utf-8');
    // Nothing about the cluster, not even whether it exists, without a genuine, current ticket for this very page.
    const ticket = readManagerTicket(secret, query.safeParse(request.query).data?.[MANAGER_TICKET_PARAM], clock.now());
    if (!ticket || stackNameFor(ticket.deploymentId) !== stackName || ticket.page !== which) {
      return reply.status(401).send(refusal('Sign-in required', SIM_PAGE_TEXTS.signInRequired));
    }
    // The manager lets in only a level that allows it: none, or No admin access, is refused.
    let level: Exclude<ManagerAccessLevel, 'NO_ADMIN_ACCESS'> | undefined;
    if (which === 'manager') {
      if (!ticket.level) return reply.status(403).send(refusal('Access level missing', SIM_PAGE_TEXTS.noLevel));
      if (ticket.level === 'NO_ADMIN_ACCESS')
        return reply.status(403).send(refusal('No access to Kumo Manager', SIM_PAGE_TEXTS.noAdminAccess));
      level = ticket.level;
    }
    const info = await cloud.stackInfo(stackName);
    if (!info || info.description.stackStatus === 'DELETE_COMPLETE') return reply.status(404).type('text/plain').send('Not found');
    const online = info.description.powerState === 'RUNNING' && info.description.deploymentStatus === 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE';
    if (!online) {
      return reply
        .status(503)
        .send(page('Unavailable', `<h1>Service unavailable</h1><p>The cluster ${escapeHtml(info.clusterName)} is not online.</p>`));
    }
    // Redeemed last, so a refusal above leaves the ticket as it was; a copy of it, sent again or at once, opens nothing.
    if (!(await tickets.redeem(ticket.id, ticket.expiresAt)))
      return reply.status(401).send(refusal('Sign-in required', SIM_PAGE_TEXTS.signInRequired));
    return reply.send(level ? managerPage(info, { ...ticket, level }) : portalPage(info, ticket));
  }

  return async function register(app: FastifyInstance): Promise<void> {
    // Open Manager's form post has an empty body; the ticket is in the address.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) =>
      done(null, {}),
    );
    const url = `${SIM_PAGES_PREFIX}/:stackName/:page/`;
    app.get(url, { schema: { hide: true } }, serve);
    // The pages stand for the cluster's own servers, another site: the form post arrives as one (the console sends no
    // referrer, so its origin reads 'null'), and the signed ticket, not the origin, is what lets it in.
    app.post(url, { schema: { hide: true }, config: { allowCrossSite: true } }, serve);
  };
}
