/**
 * Manager access levels (spec sections 5 and 6): what each person of the account may do in one cluster's Kumo
 * Manager (full admin, full kmuser, limited, no admin access), read by the account's owner and admins and changed by
 * them, never leaving a cluster without someone holding administrative privileges; and the single-sign-on ticket
 * each person asks for when opening the manager or the Web Portal, which names them and carries their level.
 */
import {
  CLUSTER_MESSAGES,
  DEFAULT_MANAGER_ACCESS,
  MANAGER_ACCESS_LABELS,
  MANAGER_ACCESS_LEVELS,
  isAdministrativeLevel,
  keepsAnAdministrator,
  type CustomerRole,
  type ManagerAccessLevel,
  type ManagerAccessResponse,
  type ManagerAccessUser,
  type ManagerTicketPage,
  type ClusterSsoResponse,
  type PutManagerAccessRequest,
  canOpenManager,
} from '@kumo/contract';
import { MANAGER_TICKET_SECONDS, withManagerTicket } from '../../adapters/cloud/index.js';
import type { Clock } from '../../clock.js';
import type { Database, DbOrTx } from '../../db/client.js';
import { badRequest, businessRule, forbidden } from '../../errors.js';
import { emailOf, notFoundCluster, type Caller, type ClusterRecords } from './cluster-records.js';
import type { ClustersRepository } from './clusters.repository.js';

/** The page a ticket opens, as the audit log names it. */
const PAGE_NAMES: Record<ManagerTicketPage, string> = { manager: 'Kumo Manager', portal: 'Web Portal' };

const isLevel = (value: string | undefined): value is ManagerAccessLevel =>
  (MANAGER_ACCESS_LEVELS as readonly string[]).includes(value ?? '');

export function createClusterAccess(deps: {
  db: Database;
  repository: ClustersRepository;
  records: Pick<ClusterRecords, 'requireCluster' | 'actorOf' | 'audit'>;
  clock: Clock;
  /** Signs the manager and Web Portal tickets. */
  managerTicketKey: string;
}) {
  const { db, repository, clock, managerTicketKey } = deps;
  const { requireCluster, actorOf, audit } = deps.records;

  /** Every person of the account with their level on the cluster: the one set for them, else their role's default. */
  async function levelsOf(accountId: string, clusterId: string, tx: DbOrTx = db): Promise<ManagerAccessUser[]> {
    const [people, set] = await Promise.all([repository.accountPeople(accountId, tx), repository.managerAccessOf(clusterId, tx)]);
    const users = people.map((person) => {
      const role = person.role as CustomerRole;
      const stored = set.get(person.userId);
      return {
        user_id: person.userId,
        user_name: person.name,
        email_id: person.email,
        role,
        access_level: isLevel(stored) ? stored : DEFAULT_MANAGER_ACCESS[role],
      };
    });
    // Changes never leave a cluster without an administrator, but the people who held the role may have left the
    // account since: the owner then holds the manager's kmuser again.
    if (!users.some((user) => isAdministrativeLevel(user.access_level))) {
      const owner = users.find((user) => user.role === 'ACCOUNT_OWNER');
      if (owner) owner.access_level = 'FULL_KMUSER';
    }
    return users;
  }

  const respond = (clusterId: string, users: ManagerAccessUser[], caller: Caller): ManagerAccessResponse => ({
    deployment_id: clusterId,
    users,
    my_access_level: users.find((user) => user.user_id === caller.userId)?.access_level ?? 'NO_ADMIN_ACCESS',
  });

  return {
    async getManagerAccess(caller: Caller, id: string): Promise<ManagerAccessResponse> {
      const view = await requireCluster(caller, id);
      return respond(view.cluster.id, await levelsOf(caller.accountId, view.cluster.id), caller);
    },

    /**
     * The manager's or the Web Portal's address with a ticket of the caller's own: it names them and their level on
     * this cluster, and is valid for a minute. Only while the cluster is online; the manager is refused to a person
     * whose level is No admin access. A staff member viewing the customer's console never gets here (the route
     * changes state): staff open the manager with a ticket of their own (Open Manager). Each ticket is written in the
     * cluster's audit log, with the person and the page it opens.
     */
    async ticket(caller: Caller, id: string, page: ManagerTicketPage): Promise<ClusterSsoResponse> {
      const { cluster } = await requireCluster(caller, id);
      const me = (await levelsOf(caller.accountId, cluster.id)).find((user) => user.user_id === caller.userId);
      if (!me) throw forbidden();
      const level = me.access_level;
      if (page === 'manager' && !canOpenManager(level)) throw forbidden(CLUSTER_MESSAGES.managerNoAccess);
      const url = page === 'manager' ? cluster.managerUrl : cluster.portalUrl;
      if (!url || cluster.status !== 'ONLINE') {
        throw businessRule(
          'CLUSTER_STATE_CONFLICT',
          page === 'manager' ? CLUSTER_MESSAGES.managerUnavailable : CLUSTER_MESSAGES.portalUnavailable,
        );
      }
      const expiresAt = new Date(clock.now().getTime() + MANAGER_TICKET_SECONDS * 1000);
      const holder = { kind: 'customer' as const, userId: me.user_id, email: me.email_id };
      // Named as whoever asked (actorOf tells a token from its creator, should a token ever get here).
      const actor = await actorOf(caller);
      const asker = typeof actor === 'string' ? actor : actor.email;
      await audit(cluster.id, 'CLUSTER_MANAGER_OPENED', `${PAGE_NAMES[page]} of ${cluster.name} opened by ${asker}.`, actor);
      return {
        url: withManagerTicket(url, managerTicketKey, { deploymentId: cluster.id, page, holder, level, expiresAt }),
        expires_at: expiresAt.toISOString(),
        access_level: level,
      };
    },

    /**
     * Changes some people's levels. Changes of one cluster are serialised on its row lock, so two admins lowering each
     * other at once cannot both succeed and leave the manager without an administrator.
     */
    async putManagerAccess(caller: Caller, id: string, request: PutManagerAccessRequest): Promise<ManagerAccessResponse> {
      const actor = await actorOf(caller);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const row = await repository.lockForAccount(caller.accountId, id, tx);
        if (!row) throw notFoundCluster();
        const users = await levelsOf(caller.accountId, row.id, tx);
        const byId = new Map(users.map((user) => [user.user_id, user]));
        const unknown = request.changes.find((change) => !byId.has(change.user_id));
        if (unknown) throw badRequest('VALIDATION_FAILED', CLUSTER_MESSAGES.managerAccessUserUnknown);
        const changes = request.changes.filter((change) => byId.get(change.user_id)!.access_level !== change.access_level);
        if (changes.length === 0) throw businessRule('VALIDATION_FAILED', CLUSTER_MESSAGES.managerAccessNothingChanged);
        if (!keepsAnAdministrator(users, changes)) throw businessRule('VALIDATION_FAILED', CLUSTER_MESSAGES.managerAccessOneAdmin);

        await repository.setManagerAccess(
          changes.map((change) => ({
            clusterId: row.id,
            userId: change.user_id,
            accessLevel: change.access_level,
            updatedByUserId: caller.actingUserId ?? caller.userId,
            updatedAt: now,
          })),
          tx,
        );
        const said = changes
          .map((change) => {
            const user = byId.get(change.user_id)!;
            return `${user.email_id} ${MANAGER_ACCESS_LABELS[user.access_level]} to ${MANAGER_ACCESS_LABELS[change.access_level]}`;
          })
          .join(', ');
        await audit(
          row.id,
          'CLUSTER_MANAGER_ACCESS_CHANGED',
          `Manager access of ${row.name} changed by ${emailOf(actor)}: ${said}.`,
          actor,
          tx,
        );
        for (const change of changes) byId.get(change.user_id)!.access_level = change.access_level;
        return respond(row.id, users, caller);
      });
    },
  };
}
