/**
 * Deleting a cluster: the customer's request approved with the account owner's OTP (wrong ones lock the person typing
 * them, never the owner), the staff four-eyes deletion, and the operation's status.
 */
import {
  CLUSTER_MESSAGES,
  MESSAGES,
  OTP,
  canClusterDo,
  clusterDeletionStartedMessage,
  deletionOtpResentMessage,
  type ClusterStatus,
  type CreateOperationRequest,
  type OperationResult,
  type OperationStatusResponse,
} from '@kumo/contract';
import { HOUR, MINUTE, type Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import { businessRule, conflict, notFound, tooManyRequests } from '../../errors.js';
import type { AuthService } from '../auth/index.js';
import type { MailService } from '../mail/index.js';
import { approvalOtpMail } from './approval-mail.js';
import { emailOf, notFoundCluster, type Caller, type ClusterRecords, type Follow } from './cluster-records.js';
import type { ClustersRepository } from './clusters.repository.js';

const approvalKey = (email: string) => `approval:${email}`;
// Wrong approval OTPs lock the person typing them, not the approver whose OTP it is.
const typerKey = (userId: string) => `approval-typed-by:${userId}`;

export function createClusterDeletion(deps: {
  db: Database;
  repository: ClustersRepository;
  auth: Pick<AuthService, 'approvalOtp' | 'accountOwnerEmail'>;
  mail: Pick<MailService, 'enqueue' | 'dispatch'>;
  records: Pick<ClusterRecords, 'requireCluster' | 'actorOf' | 'audit'>;
  follow: Follow;
  clock: Clock;
}) {
  const { db, repository, auth, mail, follow, clock } = deps;
  const { requireCluster, actorOf, audit } = deps.records;
  const isApprover = async (caller: Caller, approverEmail: string) =>
    (await repository.userEmail(caller.userId))?.toLowerCase() === approverEmail.toLowerCase();

  return {
    /**
     * Asks the account owner to approve a deletion: an OTP by mail, an operation to authenticate; says where the OTP
     * went, and whether that is the caller herself.
     */
    async requestOperation(
      caller: Caller,
      request: CreateOperationRequest,
    ): Promise<{ operationId: string; approverEmail: string; sentToCaller: boolean }> {
      const view = await requireCluster(caller, request.action_payload.deployment_id);
      if (!canClusterDo('delete', view.cluster.status as ClusterStatus))
        throw conflict('CLUSTER_STATE_CONFLICT', CLUSTER_MESSAGES.deleteNotAllowed);
      const approver = await auth.accountOwnerEmail(caller.accountId);
      if (!approver) throw notFoundCluster();
      await auth.approvalOtp.assertNotLocked(typerKey(caller.userId));
      const otp = auth.approvalOtp.generate();
      const now = clock.now();
      const actor = await actorOf(caller);
      const { operationId, mailId } = await db.transaction(async (tx) => {
        const operationId = await repository.insertOperation(
          {
            accountId: caller.accountId,
            clusterId: view.cluster.id,
            actionName: request.action_name,
            requestedByUserId: caller.userId,
            approverEmail: approver,
            otpHash: auth.approvalOtp.hash(approvalKey(approver), otp),
            expiresAt: new Date(now.getTime() + OTP.validMinutes * MINUTE),
            firstSentAt: now,
            createdAt: now,
          },
          tx,
        );
        await audit(
          view.cluster.id,
          'CLUSTER_DELETE_REQUESTED',
          `Deletion of ${view.cluster.name} requested by ${emailOf(actor)}; waiting for the approver.`,
          actor,
          tx,
        );
        const mailId = await mail.enqueue(
          approvalOtpMail(approver, otp, view.cluster.name, view.subscriptionName, emailOf(actor)),
          tx,
          // Counted and prioritised like every OTP mail.
          'otp',
        );
        return { operationId, mailId };
      });
      await mail.dispatch(mailId, 'otp');
      return { operationId, approverEmail: approver, sentToCaller: await isApprover(caller, approver) };
    },

    async resendOperationOtp(caller: Caller, operationId: string): Promise<OperationResult> {
      const operation = await repository.findOperation(caller.accountId, operationId);
      if (!operation) throw notFound('NOT_FOUND', CLUSTER_MESSAGES.operationNotFound);
      if (operation.approvedAt) throw conflict('OPERATION_ALREADY_USED', CLUSTER_MESSAGES.operationUsed);
      const now = clock.now();
      if (operation.expiresAt <= now) throw businessRule('OPERATION_EXPIRED', CLUSTER_MESSAGES.operationExpired);
      await auth.approvalOtp.assertNotLocked(typerKey(caller.userId));
      const withinHour = now.getTime() - operation.firstSentAt.getTime() < HOUR;
      if (withinHour && operation.sendCount >= OTP.maxSendsPerHour) throw tooManyRequests('OTP_RESEND_LIMIT', MESSAGES.otpResendLimit);
      const view = await requireCluster(caller, operation.clusterId);
      const otp = auth.approvalOtp.generate();
      const requester = (await repository.userEmail(operation.requestedByUserId)) ?? '';
      const mailId = await db.transaction(async (tx) => {
        await repository.updateOperation(
          operation.id,
          {
            otpHash: auth.approvalOtp.hash(approvalKey(operation.approverEmail), otp),
            expiresAt: new Date(now.getTime() + OTP.validMinutes * MINUTE),
            sendCount: withinHour ? operation.sendCount + 1 : 1,
            firstSentAt: withinHour ? operation.firstSentAt : now,
          },
          tx,
        );
        return mail.enqueue(approvalOtpMail(operation.approverEmail, otp, view.cluster.name, view.subscriptionName, requester), tx, 'otp');
      });
      await mail.dispatch(mailId, 'otp');
      const message = deletionOtpResentMessage(operation.approverEmail, await isApprover(caller, operation.approverEmail));
      return { operation_id: operation.id, status: 'PENDING_APPROVAL', message };
    },

    /**
     * The approver's OTP: single use, expires with the OTP. Wrong ones count towards the daily lock of the person typing
     * them (an admin's guesses never lock the owner out of approving), and the lock check, the comparison, the count
     * and the approval are one step, whichever process each attempt reaches.
     */
    async authenticateOperation(caller: Caller, operationId: string, otp: string): Promise<OperationResult> {
      const operation = await repository.findOperation(caller.accountId, operationId);
      if (!operation) throw notFound('NOT_FOUND', CLUSTER_MESSAGES.operationNotFound);
      if (operation.approvedAt) throw conflict('OPERATION_ALREADY_USED', CLUSTER_MESSAGES.operationUsed);
      if (operation.expiresAt <= clock.now()) throw businessRule('OPERATION_EXPIRED', CLUSTER_MESSAGES.operationExpired);

      const actor = await actorOf(caller);
      const names = await auth.approvalOtp.attempt<{ cluster: string; subscription: string }>(typerKey(caller.userId), async (tx) => {
        if (!auth.approvalOtp.matches(approvalKey(operation.approverEmail), otp, operation.otpHash)) return { matched: false };
        if (!(await repository.approveOperation(operation.id, clock.now(), tx)))
          throw conflict('OPERATION_ALREADY_USED', CLUSTER_MESSAGES.operationUsed);
        const row = await repository.lockForAccount(caller.accountId, operation.clusterId, tx);
        if (!row) throw notFoundCluster();
        if (!canClusterDo('delete', row.status as ClusterStatus))
          throw conflict('CLUSTER_STATE_CONFLICT', CLUSTER_MESSAGES.deleteNotAllowed);
        await repository.update(row.id, { status: 'DELETING', statusUpdatedAt: clock.now(), cloudCommandPending: true }, tx);
        await audit(
          row.id,
          'CLUSTER_DELETE_APPROVED',
          `Deletion of ${row.name} approved by ${operation.approverEmail}; started by ${emailOf(actor)}.`,
          actor,
          tx,
        );
        const view = await repository.findForAccount(caller.accountId, row.id, {}, tx);
        return { matched: true, value: { cluster: row.name, subscription: view?.subscriptionName ?? '' } };
      });
      await follow(operation.clusterId);
      return { operation_id: operation.id, status: 'APPROVED', message: clusterDeletionStartedMessage(names.cluster, names.subscription) };
    },

    /** A deletion staff ask for (admin four-eyes action): the customer's cluster, refused unless it may be deleted now. */
    async staffDeletionTarget(accountId: string, id: string): Promise<{ name: string; subscriptionName: string }> {
      const view = await repository.findForAccount(accountId, id, {});
      if (!view) throw notFoundCluster();
      if (!canClusterDo('delete', view.cluster.status as ClusterStatus))
        throw conflict('CLUSTER_STATE_CONFLICT', CLUSTER_MESSAGES.deleteNotAllowed);
      return { name: view.cluster.name, subscriptionName: view.subscriptionName };
    },

    /**
     * Starts a deletion one staff member asked for and another approved, inside the caller's transaction (the
     * approval and the deletion commit together); the audit log tells the customer staff did it. Call
     * followDeletion once the transaction commits.
     */
    async deleteByStaff(accountId: string, id: string, who: { userId: string; email: string; approvedBy: string }, tx: Tx) {
      const row = await repository.lockForAccount(accountId, id, tx);
      if (!row) throw notFoundCluster();
      if (!canClusterDo('delete', row.status as ClusterStatus)) throw conflict('CLUSTER_STATE_CONFLICT', CLUSTER_MESSAGES.deleteNotAllowed);
      await repository.update(row.id, { status: 'DELETING', statusUpdatedAt: clock.now(), cloudCommandPending: true }, tx);
      await audit(
        row.id,
        'CLUSTER_DELETE_APPROVED',
        `Deletion of ${row.name} by Kumo Cloud staff (${who.email}), approved by ${who.approvedBy}.`,
        { userId: who.userId, email: who.email },
        tx,
      );
      return { name: row.name };
    },

    followDeletion: (id: string) => follow(id),

    async operationStatus(caller: Caller, operationId: string): Promise<OperationStatusResponse> {
      const operation = await repository.findOperation(caller.accountId, operationId);
      if (!operation) throw notFound('NOT_FOUND', CLUSTER_MESSAGES.operationNotFound);
      // As the jobs last wrote it: a read never asks the cloud.
      const fresh = await requireCluster(caller, operation.clusterId, { includeDeleted: true });
      return {
        operation_id: operation.id,
        action_name: operation.actionName as OperationStatusResponse['action_name'],
        status: operation.approvedAt ? 'APPROVED' : operation.expiresAt <= clock.now() ? 'EXPIRED' : 'PENDING_APPROVAL',
        deployment_id: operation.clusterId,
        cluster_name: fresh.cluster.name,
        subscription_name: fresh.subscriptionName,
        cluster_status: fresh.cluster.status as ClusterStatus,
        expires_at: operation.expiresAt.toISOString(),
      };
    },
  };
}
