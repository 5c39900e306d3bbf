/**
 * Four-eyes admin actions (spec sections 4 and 7): a staff member asks, the payload is frozen under an HMAC,
 * each approver gets their own OTP by mail (never the requester), and the requester types the OTP an approver
 * read out after checking the request. Single use, expires with the OTP, every step recorded.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  ADMIN_ACTION_LABELS,
  ADMIN_ACTION_PERMISSIONS,
  ADMIN_MESSAGES,
  MESSAGES,
  OTP,
  isSystemRole,
  permissionsFor,
  type AdminActionName,
  type AdminActionOrder,
  type ActionDetail,
  type AdminActionResponse,
  type AdminCancelResponse,
  type AdminAuthenticateResponse,
  type PendingApproval,
} from '@kumo/contract';
import { HOUR, MINUTE, type Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import type { Caller } from '../../http/caller.js';
import { badRequest, businessRule, conflict, forbidden, notFound, tooManyRequests } from '../../errors.js';
import type { AuthService, StaffActionLog } from '../auth/index.js';
import type { ClustersService } from '../clusters/index.js';
import type { Ledger } from '../ledger/index.js';
import type { MailService } from '../mail/index.js';
import type { NoticesService } from '../notices/index.js';
import type { MeteringService } from '../metering/index.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import { adminApprovalMail } from './approval-mail.js';
import { createAdminActions } from './four-eyes-actions.js';
import type { AdminOperationRow, OperationsRepository, PendingRow } from './operations.repository.js';

/** The staff member asking or approving: the caller's id and role. */
export type Staff = Pick<Caller, 'userId' | 'role'>;

/** JSON with keys sorted at every level, so the same payload always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export function createFourEyes(deps: {
  db: Database;
  repository: OperationsRepository;
  auth: AuthService;
  mail: MailService;
  ledger: Ledger;
  subscriptions: SubscriptionsService;
  clusters: ClustersService;
  metering: MeteringService;
  clock: Clock;
  secret: string;
  /** APPROVER_EMAILS: when set, only these staff approve; otherwise every other SYSTEM_ADMIN. */
  approverEmails?: string[];
  staffActions: StaffActionLog;
  /** What staff do to the account is also a notice in the owner's bell. */
  notices: Pick<NoticesService, 'write'>;
}) {
  const { db, repository, auth, mail, ledger, subscriptions, clusters, metering, clock, secret } = deps;
  // Wrong OTPs count against the person typing them: the requester.
  const lockKey = (requesterUserId: string) => `admin-approval:${requesterUserId}`;
  // Each approver's OTP is hashed under its own key, so a match names the approver.
  const hashKey = (operationId: string, approver: string) => `admin-op:${operationId}:${approver}`;

  const sign = (action: string, customerUserId: string, payload: unknown) =>
    createHmac('sha256', secret)
      .update(`admin-op|${action}|${customerUserId}|${canonicalJson(payload)}`)
      .digest('hex');
  const signatureHolds = (row: AdminOperationRow) => {
    const expected = Buffer.from(sign(row.actionName, row.customerUserId, row.payload), 'hex');
    const stored = Buffer.from(row.payloadHmac, 'hex');
    return stored.length === expected.length && timingSafeEqual(stored, expected);
  };

  function assertAllowed(staff: Staff, action: AdminActionName): void {
    if (!isSystemRole(staff.role) || permissionsFor(staff.role)[ADMIN_ACTION_PERMISSIONS[action]] !== 'ENABLED') throw forbidden();
  }

  async function approversFor(requesterEmail: string): Promise<string[]> {
    const me = requesterEmail.toLowerCase();
    const configured = (deps.approverEmails ?? []).map((email) => email.trim().toLowerCase()).filter(Boolean);
    const pool = configured.length > 0 ? configured : (await repository.otherSystemAdmins(me)).map((email) => email.toLowerCase());
    return [...new Set(pool)].filter((email) => email !== me);
  }

  async function customerOf(userId: string) {
    const customer = await repository.customer(userId);
    if (!customer) throw notFound('NOT_FOUND', ADMIN_MESSAGES.customerNotFound);
    return customer;
  }

  const actions = createAdminActions({
    repository,
    ledger,
    subscriptions,
    clusters,
    metering,
    mail,
    clock,
    staffActions: deps.staffActions,
    notices: deps.notices,
  });

  /** Sends each approver a fresh OTP; returns their hashes. */
  async function issueOtps(operationId: string, approvers: string[], mailWhat: Parameters<typeof adminApprovalMail>[2], tx: Tx) {
    const hashes: Record<string, string> = {};
    const mailIds: string[] = [];
    for (const approver of approvers) {
      const otp = auth.approvalOtp.generate();
      hashes[approver] = auth.approvalOtp.hash(hashKey(operationId, approver), otp);
      mailIds.push(await mail.enqueue(adminApprovalMail(approver, otp, mailWhat), tx, 'otp'));
    }
    return { hashes, mailIds };
  }

  /** A waiting operation as the Approvals page shows it: what will happen, in words. */
  async function toPending({ operation, customerEmail, customerName, requesterEmail }: PendingRow): Promise<PendingApproval> {
    const order = {
      action_name: operation.actionName,
      action_payload: operation.payload,
      user_id: operation.customerUserId,
    } as AdminActionOrder;
    let details: ActionDetail[];
    try {
      details = await actions.describe(order, operation.accountId, true);
    } catch (error) {
      // Asked for while possible, no longer so (a cluster deleted meanwhile): say why it would fail.
      details = [{ label: 'Cannot be done now', value: error instanceof Error ? error.message : MESSAGES.validationFailed }];
    }
    return {
      operation_id: operation.id,
      action_name: operation.actionName as AdminActionName,
      action_payload: operation.payload,
      customer_user_id: operation.customerUserId,
      customer_name: customerName,
      customer_email: customerEmail,
      details,
      requested_by_email: requesterEmail,
      requested_at: operation.createdAt.toISOString(),
      expires_at: operation.expiresAt.toISOString(),
    };
  }

  async function ownOperation(staff: Staff, operationId: string): Promise<AdminOperationRow> {
    const row = await repository.find(operationId);
    // Another staff member's operation is as unknown as one that never existed: only its requester completes it.
    if (!row || row.requestedByUserId !== staff.userId) throw notFound('NOT_FOUND', ADMIN_MESSAGES.operationNotFound);
    if (row.approvedAt) throw conflict('OPERATION_ALREADY_USED', ADMIN_MESSAGES.operationUsed);
    if (row.cancelledAt) throw conflict('OPERATION_CANCELLED', ADMIN_MESSAGES.operationCancelled);
    return row;
  }

  return {
    async request(staff: Staff, order: AdminActionOrder): Promise<AdminActionResponse> {
      assertAllowed(staff, order.action_name);
      const payloadUser = (order.action_payload as { user_id?: string }).user_id;
      if (payloadUser !== undefined && payloadUser !== order.user_id)
        throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed, { user_id: MESSAGES.validationFailed });
      const customer = await customerOf(order.user_id);
      const details = await actions.describe(order, customer.accountId);
      const requesterEmail = (await repository.userEmail(staff.userId)) ?? '';
      const approvers = await approversFor(requesterEmail);
      if (approvers.length === 0) throw businessRule('NO_APPROVER', ADMIN_MESSAGES.noApprover);
      await auth.approvalOtp.assertNotLocked(lockKey(staff.userId));

      const now = clock.now();
      const expiresAt = new Date(now.getTime() + OTP.validMinutes * MINUTE);
      const payload = order.action_payload as Record<string, unknown>;
      const { id, mailIds } = await db.transaction(async (tx) => {
        const row = await repository.insert(
          {
            actionName: order.action_name,
            customerUserId: customer.userId,
            accountId: customer.accountId,
            payload,
            payloadHmac: sign(order.action_name, customer.userId, payload),
            requestedByUserId: staff.userId,
            approverOtpHashes: {},
            expiresAt,
            firstSentAt: now,
            createdAt: now,
          },
          tx,
        );
        const what = { action: ADMIN_ACTION_LABELS[order.action_name], details, requestedBy: requesterEmail, customer: customer.email };
        const { hashes, mailIds } = await issueOtps(row.id, approvers, what, tx);
        await repository.update(row.id, { approverOtpHashes: hashes }, tx);
        return { id: row.id, mailIds };
      });
      for (const mailId of mailIds) await mail.dispatch(mailId, 'otp');
      return { operation_id: id, message: ADMIN_MESSAGES.approverOtpSent, expires_at: expiresAt.toISOString() };
    },

    async resend(staff: Staff, operationId: string): Promise<AdminActionResponse> {
      const row = await ownOperation(staff, operationId);
      assertAllowed(staff, row.actionName as AdminActionName);
      const now = clock.now();
      if (row.expiresAt <= now) throw businessRule('OPERATION_EXPIRED', ADMIN_MESSAGES.operationExpired);
      await auth.approvalOtp.assertNotLocked(lockKey(staff.userId));
      const withinHour = now.getTime() - row.firstSentAt.getTime() < HOUR;
      if (withinHour && row.sendCount >= OTP.maxSendsPerHour) throw tooManyRequests('OTP_RESEND_LIMIT', MESSAGES.otpResendLimit);
      const customer = await customerOf(row.customerUserId);
      const order = { action_name: row.actionName, action_payload: row.payload, user_id: row.customerUserId } as AdminActionOrder;
      const details = await actions.describe(order, row.accountId);
      const requesterEmail = (await repository.userEmail(staff.userId)) ?? '';
      const expiresAt = new Date(now.getTime() + OTP.validMinutes * MINUTE);
      const mailIds = await db.transaction(async (tx) => {
        const what = {
          action: ADMIN_ACTION_LABELS[row.actionName as AdminActionName],
          details,
          requestedBy: requesterEmail,
          customer: customer.email,
        };
        // The same approvers as when asked: the set is part of what was recorded.
        const { hashes, mailIds } = await issueOtps(row.id, Object.keys(row.approverOtpHashes), what, tx);
        await repository.update(
          row.id,
          {
            approverOtpHashes: hashes,
            expiresAt,
            sendCount: withinHour ? row.sendCount + 1 : 1,
            firstSentAt: withinHour ? row.firstSentAt : now,
          },
          tx,
        );
        return mailIds;
      });
      for (const mailId of mailIds) await mail.dispatch(mailId, 'otp');
      return { operation_id: row.id, message: ADMIN_MESSAGES.otpResent, expires_at: expiresAt.toISOString() };
    },

    /**
     * The requester types the OTP an approver read out. Wrong ones count towards the requester's daily lock, and the
     * lock check, the comparison, the count and the approved action are one step, whichever process each attempt reaches.
     */
    async authenticate(staff: Staff, operationId: string, otp: string): Promise<AdminAuthenticateResponse> {
      const asked = await ownOperation(staff, operationId);
      const action = asked.actionName as AdminActionName;
      assertAllowed(staff, action);
      const requester = { userId: staff.userId, email: (await repository.userEmail(staff.userId)) ?? '' };
      type Done = Awaited<ReturnType<typeof actions.execute>>;
      const result = await auth.approvalOtp.attempt<Done>(lockKey(staff.userId), async (tx) => {
        // Read again inside the step: the OTPs a resend sent meanwhile are the ones that count.
        const row = (await repository.find(asked.id, tx)) ?? asked;
        // Only once the lock is checked: a locked requester hears of the lock first.
        if (row.cancelledAt) throw conflict('OPERATION_CANCELLED', ADMIN_MESSAGES.operationCancelled);
        if (row.expiresAt <= clock.now()) throw businessRule('OPERATION_EXPIRED', ADMIN_MESSAGES.operationExpired);
        const approver = Object.entries(row.approverOtpHashes).find(([email, hash]) =>
          auth.approvalOtp.matches(hashKey(row.id, email), otp, hash),
        )?.[0];
        if (!approver) return { matched: false };
        // What is approved is exactly what was asked: a payload changed since then is refused.
        if (!signatureHolds(row)) throw conflict('OPERATION_TAMPERED', ADMIN_MESSAGES.operationTampered);
        if (!(await repository.approve(row.id, clock.now(), approver, tx)))
          throw conflict('OPERATION_ALREADY_USED', ADMIN_MESSAGES.operationUsed);
        const done = await actions.execute(row, requester, approver, tx);
        await repository.update(row.id, { outcome: done.outcome }, tx);
        return { matched: true, value: done };
      });
      if (result.mailId) await mail.dispatch(result.mailId);
      if (action === 'delete_cluster') await clusters.followDeletion(String((asked.payload as { deployment_id: string }).deployment_id));
      return { operation_id: asked.id, action_name: action, status: 'APPROVED', message: result.message };
    },

    /** What waits for this staff member's approval, in words. */
    async pendingApprovals(staff: Staff): Promise<PendingApproval[]> {
      const email = (await repository.userEmail(staff.userId)) ?? '';
      return Promise.all((await repository.pendingFor({ approverEmail: email }, clock.now())).map(toPending));
    },

    /** What this staff member asked for that still waits for an approver's OTP: the way back to a closed dialog. */
    async myPendingRequests(staff: Staff): Promise<PendingApproval[]> {
      return Promise.all((await repository.pendingFor({ requestedBy: staff.userId }, clock.now())).map(toPending));
    },

    /** The requester withdraws a waiting request: no OTP sent for it works any more. */
    async cancel(staff: Staff, operationId: string): Promise<AdminCancelResponse> {
      const row = await ownOperation(staff, operationId);
      if (row.expiresAt <= clock.now()) throw businessRule('OPERATION_EXPIRED', ADMIN_MESSAGES.operationExpired);
      if (!(await repository.cancel(row.id, clock.now()))) throw conflict('OPERATION_ALREADY_USED', ADMIN_MESSAGES.operationUsed);
      return { operation_id: row.id, message: ADMIN_MESSAGES.requestCancelled };
    },
  };
}
export type FourEyes = ReturnType<typeof createFourEyes>;
