/**
 * The simulated cluster's own web pages: Kumo Manager (user kmuser) and the Web Portal (user Admin).
 * They open only with the single-sign-on ticket the portal puts on their addresses (Open Manager, the cluster
 * page's links), and answer only while the simulated cluster is online, like the real services on a stopped cluster.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PRODUCT } from '@kumo/contract';
import type { Clock } from '../../../clock.js';
import { escapeHtml } from '../../../lib/html.js';
import { stackNameFor } from '../cloud-provisioner.js';
import { MANAGER_TICKET_PARAM, readManagerTicket } from '../manager-ticket.js';
import { KUMO_MANAGER_USER, WEB_PORTAL_USER } from '../template/node-layout.js';
import { SIM_PAGES_PREFIX, type SimulatedProvisioner } from './simulated-provisioner.js';

const params = z.object({ stackName: z.string().max(140), page: z.enum(['manager', 'portal']) });
const query = z.object({ [MANAGER_TICKET_PARAM]: z.string().max(2000).optional() });

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:3rem;color:#1b2733}h1{font-size:1.6rem}dt{font-weight:600;margin-top:.6rem}.note{color:#5c6b7a}</style>
</head><body>${body}</body></html>`;
}

export interface SimPages {
  cloud: SimulatedProvisioner;
  /** Verifies the pages' single-sign-on tickets. */
  secret: string;
  clock: Clock;
}

export function simPagesRoutes({ cloud, secret, clock }: SimPages) {
  return async function register(app: FastifyInstance): Promise<void> {
    app.get(`${SIM_PAGES_PREFIX}/:stackName/:page/`, { schema: { hide: true } }, async (request, reply) => {
      const parsed = params.safeParse(request.params);
      if (!parsed.success) return reply.status(404).type('text/plain').send('Not found');
      const { stackName, page: which } = parsed.data;
      reply
        .header('cache-control', 'no-store')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
      // Nothing about the cluster, not even whether it exists, without a genuine, current ticket for this very cluster.
      const ticket = readManagerTicket(secret, query.safeParse(request.query).data?.[MANAGER_TICKET_PARAM], clock.now());
      if (!ticket || stackNameFor(ticket.deploymentId) !== stackName) {
        return reply
          .status(401)
          .type('text/html; charset=utf-8')
          .send(
            page(
              'Sign-in required',
              '<h1>Sign-in required</h1><p>This link has expired or is not valid. Open Kumo Manager or the Web Portal again from the cluster in the portal.</p>',
            ),
          );
      }
      const info = await cloud.stackInfo(stackName);
      if (!info || info.description.stackStatus === 'DELETE_COMPLETE') return reply.status(404).type('text/plain').send('Not found');
      const online = info.description.powerState === 'RUNNING' && info.description.deploymentStatus === 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE';
      if (!online) {
        return reply
          .status(503)
          .type('text/html; charset=utf-8')
          .send(page('Unavailable', `<h1>Service unavailable</h1><p>The cluster ${escapeHtml(info.clusterName)} is not online.</p>`));
      }
      const manager = which === 'manager';
      const title = `${manager ? 'Kumo Manager' : 'Kumo Web Portal'} · ${info.clusterName}`;
      const rows = [
        ['Cluster', info.clusterName],
        ['Region', typeof info.settings.region === 'string' ? info.settings.region : ''],
        ['Version', typeof info.settings.kumoVersion === 'string' ? info.settings.kumoVersion : ''],
        ['Signed in as', manager ? KUMO_MANAGER_USER : WEB_PORTAL_USER],
      ];
      const nodes = manager
        ? `<h2>Nodes</h2><ul>${info.description.nodes.map((node) => `<li>${escapeHtml(node.host)}: ${escapeHtml(node.serviceName)} ${escapeHtml(node.serviceStatus)}</li>`).join('')}</ul>`
        : '';
      return reply
        .type('text/html; charset=utf-8')
        .send(
          page(
            title,
            `<h1>${escapeHtml(title)}</h1><p class="note">Simulated by ${escapeHtml(PRODUCT.shortName)}: no cloud resources exist.</p><dl>${rows
              .map(([k, v]) => `<dt>${escapeHtml(k!)}</dt><dd>${escapeHtml(v!)}</dd>`)
              .join('')}</dl>${nodes}`,
          ),
        );
    });
  };
}
