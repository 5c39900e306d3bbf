/**
 * What the simulated Kumo Manager and Web Portal show to the person a ticket names. The manager shows what their
 * access level allows: Full admin and Full kmuser everything (monitoring, logs, every property, users and security),
 * Limited only monitoring, the logs and the few properties it may change, the rest read-only.
 */
import { MANAGER_ACCESS_LABELS, PRODUCT, type ManagerAccessLevel } from '@kumo/contract';
import { escapeHtml } from '../../../lib/html.js';
import type { ClusterDescription } from '../cloud-provisioner.js';
import type { ManagerTicket } from '../manager-ticket.js';
import { KUMO_MANAGER_USER, WEB_PORTAL_USER } from '../template/node-layout.js';

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:3rem;color:#1b2733}h1{font-size:1.6rem}dt{font-weight:600;margin-top:.6rem}.note{color:#5c6b7a}table{border-collapse:collapse}th,td{text-align:left;padding:.25rem 1rem .25rem 0}</style>
</head><body>${body}</body></html>`;
}

export function refusal(title: string, text: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`);
}

/** What a level may do in the manager. */
export interface ManagerRights {
  monitor: boolean;
  logs: boolean;
  /** Every property, or only the ones marked `limited`. */
  properties: 'all' | 'some';
  usersAndSecurity: boolean;
}

export function managerRights(level: Exclude<ManagerAccessLevel, 'NO_ADMIN_ACCESS'>): ManagerRights {
  if (level === 'LIMITED') return { monitor: true, logs: true, properties: 'some', usersAndSecurity: false };
  return { monitor: true, logs: true, properties: 'all', usersAndSecurity: true };
}

/** The manager's properties; those marked `limited` may be changed at the Limited level too. */
const PROPERTIES = [
  { name: 'Query timeout', value: '300 seconds', limited: true },
  { name: 'Result cache size', value: '2 GB', limited: true },
  { name: 'Log level', value: 'INFO', limited: true },
  { name: 'Authentication', value: `${PRODUCT.shortName} single sign-on`, limited: false },
  { name: 'TLS certificate', value: 'Managed', limited: false },
  { name: 'Backup schedule', value: 'Daily at 02:00 UTC', limited: false },
] as const;

export interface PageCluster {
  clusterName: string;
  settings: Record<string, unknown>;
  description: ClusterDescription;
}

const setting = (cluster: PageCluster, key: string) => (typeof cluster.settings[key] === 'string' ? cluster.settings[key] : '');

const definitions = (rows: [string, string][]) =>
  `<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;

function holderName(ticket: ManagerTicket): string {
  return ticket.holder.kind === 'staff' ? `${ticket.holder.email} (provider staff)` : ticket.holder.email;
}

/** A section of a page: its heading and what it shows, in one element named after the heading unless `plain`. */
interface Section {
  heading: string;
  element: 'ul' | 'pre' | 'table' | 'p';
  html: string;
  plain?: boolean;
}

const section = ({ heading, element, html, plain }: Section) =>
  `<h2>${escapeHtml(heading)}</h2><${element}${plain ? '' : ` aria-label="${escapeHtml(heading)}"`}>${html}</${element}>`;

/** A simulated page: its title, the note that nothing is real, what it is about, then its sections. */
function simulatedPage(title: string, about: [string, string][], sections: Section[] = []): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><p class="note">Simulated by ${escapeHtml(PRODUCT.shortName)}: no cloud resources exist.</p>` +
      definitions(about) +
      sections.map(section).join(''),
  );
}

/** What both pages say first: the cluster, where it runs, its version and who is signed in. */
const aboutCluster = (cluster: PageCluster, ticket: ManagerTicket): [string, string][] => [
  ['Cluster', cluster.clusterName],
  ['Region', setting(cluster, 'region')],
  ['Version', setting(cluster, 'kumoVersion')],
  ['Signed in as', holderName(ticket)],
];

/** The manager, as the ticket's level allows it (the caller has refused tickets without a level or with No admin access). */
export function managerPage(cluster: PageCluster, ticket: ManagerTicket & { level: Exclude<ManagerAccessLevel, 'NO_ADMIN_ACCESS'> }) {
  const rights = managerRights(ticket.level);
  const account = ticket.level === 'FULL_KMUSER' ? KUMO_MANAGER_USER : ticket.holder.email;
  const allowed = [
    'Monitor the cluster',
    'View logs',
    rights.properties === 'all' ? 'Change every property' : 'Change some properties',
    ...(rights.usersAndSecurity ? ['Manage users and security'] : []),
  ];
  const nodes = cluster.description.nodes
    .map((node) => `<li>${escapeHtml(node.host)}: ${escapeHtml(node.serviceName)} ${escapeHtml(node.serviceStatus)}</li>`)
    .join('');
  const properties = PROPERTIES.map((property) => {
    const changeable = rights.properties === 'all' || property.limited;
    return `<tr><td>${escapeHtml(property.name)}</td><td>${escapeHtml(property.value)}</td><td>${changeable ? 'Can change' : 'Read-only'}</td></tr>`;
  }).join('');
  const sections: Section[] = [
    { heading: 'What you can do', element: 'ul', html: allowed.map((item) => `<li>${escapeHtml(item)}</li>`).join('') },
    { heading: 'Nodes', element: 'ul', html: nodes },
    { heading: 'Logs', element: 'pre', html: escapeHtml(`${cluster.clusterName}: all services online`) },
    {
      heading: 'Properties',
      element: 'table',
      html: `<thead><tr><th>Property</th><th>Value</th><th>Access</th></tr></thead><tbody>${properties}</tbody>`,
    },
  ];
  if (rights.usersAndSecurity) {
    const html = 'Add and remove manager users, give roles and change security settings.';
    sections.push({ heading: 'Users and security', element: 'p', html, plain: true });
  }
  return simulatedPage(
    `Kumo Manager · ${cluster.clusterName}`,
    [...aboutCluster(cluster, ticket), ['Access level', MANAGER_ACCESS_LABELS[ticket.level]], ['Manager account', account]],
    sections,
  );
}

export function portalPage(cluster: PageCluster, ticket: ManagerTicket): string {
  return simulatedPage(`Kumo Web Portal · ${cluster.clusterName}`, [...aboutCluster(cluster, ticket), ['Portal account', WEB_PORTAL_USER]]);
}
