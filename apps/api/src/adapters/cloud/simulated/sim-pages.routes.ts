/**
 * The simulated cluster's own web pages: Kumo Manager (user kmuser) and the Web Portal (user Admin).
 * They answer only while the simulated cluster is online, like the real services on a stopped cluster.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PRODUCT } from '@kumo/contract';
import { escapeHtml } from '../../../lib/html.js';
import { KUMO_MANAGER_USER, WEB_PORTAL_USER } from '../template/node-layout.js';
import { SIM_PAGES_PREFIX, type SimulatedProvisioner } from './simulated-provisioner.js';

const params = z.object({ stackName: z.string().max(140), page: z.enum(['manager', 'portal']) });

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:3rem;color:#1b2733}h1{font-size:1.6rem}dt{font-weight:600;margin-top:.6rem}.note{color:#5c6b7a}</style>
</head><body>${body}</body></html>`;
}

export function simPagesRoutes(cloud: SimulatedProvisioner) {
  return async function register(app: FastifyInstance): Promise<void> {
    app.get(`${SIM_PAGES_PREFIX}/:stackName/:page/`, { schema: { hide: true } }, async (request, reply) => {
      const parsed = params.safeParse(request.params);
      if (!parsed.success) return reply.status(404).type('text/plain').send('Not found');
      const { stackName, page: which } = parsed.data;
      const info = await cloud.stackInfo(stackName);
      reply
        .header('cache-control', 'no-store')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
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
