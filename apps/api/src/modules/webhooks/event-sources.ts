/**
 * What the portal already records, read as webhook events: the notices it writes a customer (budget alerts, the
 * runway warning, top-ups, expiring credits) and the clusters' audit entries that move a cluster's status. The
 * modules that record them know nothing of webhooks; services.ts hands these events to the webhooks' emitter.
 */
import type { AuditEvent, ClusterStatus, NoticeKind, WebhookEventType } from '@kumo/contract';
import type { AuditedEntry } from '../clusters/index.js';

export interface WebhookEvent {
  accountId: string;
  type: WebhookEventType;
  /** What the event is from: the same source twice is delivered once per endpoint. */
  key: string;
  data: Record<string, unknown>;
}

const NOTICE_EVENTS: Partial<Record<NoticeKind, WebhookEventType>> = {
  BUDGET_ALERT: 'budget.threshold_reached',
  RUNWAY: 'balance.runway_warning',
  TOP_UP_SUCCEEDED: 'top_up.succeeded',
  TOP_UP_FAILED: 'top_up.failed',
  CREDIT_EXPIRY: 'credits.expiring',
};

/** A notice as its writer drafted it (the fields an event needs). */
export interface NoticeFacts {
  accountId: string;
  kind: NoticeKind;
  key: string;
  title: string;
  body: string;
  /** The subscription the notice is about, as its writer says: never read back out of its console link. */
  subscriptionId?: string | null;
}

export function eventOfNotice(notice: NoticeFacts): WebhookEvent | undefined {
  const type = NOTICE_EVENTS[notice.kind];
  if (!type) return undefined;
  return {
    accountId: notice.accountId,
    type,
    key: `notice:${notice.key}`,
    data: { subscription_id: notice.subscriptionId ?? null, title: notice.title, message: notice.body },
  };
}

/** The status a cluster has after each audited event that changes it. */
const STATUS_AFTER: Partial<Record<AuditEvent, ClusterStatus>> = {
  CLUSTER_CREATE_REQUESTED: 'DEPLOYING',
  CLUSTER_DEPLOYED: 'ONLINE',
  CLUSTER_DEPLOYMENT_FAILED: 'FAILED',
  CLUSTER_STARTED: 'ONLINE',
  CLUSTER_STOP_REQUESTED: 'STOPPING',
  CLUSTER_STOPPED: 'OFFLINE',
  CLUSTER_DELETE_APPROVED: 'DELETING',
  CLUSTER_DELETED: 'DELETED',
};

/** A cluster's audit entry as the clusters module writes it, with the cluster it is about. */
export type ClusterAuditFacts = AuditedEntry;

/**
 * A cluster's new shape: an online cluster's once its engines are in place, an offline one's as it is saved (its next
 * start brings it up).
 */
function resizedEvent(entry: ClusterAuditFacts): WebhookEvent[] {
  const resized = entry.event === 'CLUSTER_RESIZED' || (entry.event === 'CLUSTER_RESIZE_REQUESTED' && entry.status === 'OFFLINE');
  if (!resized) return [];
  return [
    {
      accountId: entry.accountId,
      type: 'cluster.resized',
      key: `cluster:${entry.clusterId}:${entry.event}:${entry.at.toISOString()}`,
      data: {
        cluster_id: entry.clusterId,
        cluster_name: entry.clusterName,
        subscription_id: entry.subscriptionId,
        status: entry.status,
        size: entry.shape.size,
        query_engines: entry.shape.queryEngines,
        message: entry.description,
      },
    },
  ];
}

export function eventsOfClusterAudit(entry: ClusterAuditFacts): WebhookEvent[] {
  if (entry.event === 'CLUSTER_RESIZED' || entry.event === 'CLUSTER_RESIZE_REQUESTED') return resizedEvent(entry);
  const status = STATUS_AFTER[entry.event];
  if (!status) return [];
  const data = {
    cluster_id: entry.clusterId,
    cluster_name: entry.clusterName,
    subscription_id: entry.subscriptionId,
    status,
    message: entry.description,
  };
  const key = `cluster:${entry.clusterId}:${entry.event}:${entry.at.toISOString()}`;
  const events: WebhookEvent[] = [{ accountId: entry.accountId, type: 'cluster.status_changed', key, data }];
  if (entry.event === 'CLUSTER_DEPLOYED') events.push({ accountId: entry.accountId, type: 'deployment.completed', key, data });
  if (entry.event === 'CLUSTER_DEPLOYMENT_FAILED') events.push({ accountId: entry.accountId, type: 'deployment.failed', key, data });
  return events;
}
