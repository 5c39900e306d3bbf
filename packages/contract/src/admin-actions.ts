import { z } from 'zod';
import { ADMIN_FUND_CATEGORIES } from './billing.js';
import { MESSAGES } from './messages.js';
import { METERING_DIMENSIONS, RATE_PATTERN } from './metering.js';
import { ADD_FUNDS, MAX_PURCHASE_CENTS, MIN_PURCHASE_CENTS, readAmount } from './money.js';
import { ADMIN_LIMITS, ADMIN_MESSAGES } from './admin.js';
import { freeTextSchema } from './validation.js';

// ---------------------------------------------------------------------------------------------
// Four-eyes actions (spec sections 4 and 7)
// ---------------------------------------------------------------------------------------------

export const ADMIN_ACTIONS = ['add_funds', 'change_service_rate', 'change_overdue_limit', 'delete_cluster'] as const;
export type AdminActionName = (typeof ADMIN_ACTIONS)[number];
export const ADMIN_ACTION_LABELS: Record<AdminActionName, string> = {
  add_funds: 'Add funds',
  change_service_rate: 'Change service rates',
  change_overdue_limit: 'Change overdue limit',
  delete_cluster: 'Delete cluster',
};
/** The permission key each action needs, both to ask for it and to complete it. */
export const ADMIN_ACTION_PERMISSIONS: Record<AdminActionName, string> = {
  add_funds: 'customer_subscription_add_funds',
  change_service_rate: 'customer_change_rates',
  change_overdue_limit: 'customer_change_overdue',
  delete_cluster: 'customer_delete_cluster',
};

/** Dollars with at most two decimals, as a JSON number or text; checked digit by digit (money.ts). */
const dollars = (check: (cents: number) => string | undefined) =>
  z.union([z.number(), z.string().max(32)]).transform((value, ctx) => {
    const parsed = readAmount(typeof value === 'string' ? value.replace(/,/g, '') : value);
    const error = parsed.ok ? check(parsed.cents) : parsed.reason === 'too-many-decimals' ? MESSAGES.amountDecimals : check(-1);
    if (error) {
      ctx.addIssue({ code: 'custom', message: error });
      return z.NEVER;
    }
    return parsed.ok ? parsed.cents / 100 : 0;
  });

export const addFundsPayloadSchema = z.object({
  amount: dollars((cents) =>
    cents < MIN_PURCHASE_CENTS ? MESSAGES.addFundsMinimum : cents > MAX_PURCHASE_CENTS ? MESSAGES.addFundsMaximum : undefined,
  ),
  event_name: freeTextSchema(64).optional().default('ADMIN_ADD_FUNDS'),
  iso_currency_code: z.literal(ADD_FUNDS.currency, { error: MESSAGES.currencyUnsupported }).optional().default(ADD_FUNDS.currency),
  mode: z.literal('FREE').optional().default('FREE'),
  remark: freeTextSchema(ADMIN_LIMITS.remarkMaxLength).optional().default(''),
  subscription_id: z.uuid({ error: MESSAGES.subscriptionNotFound }),
  category: z.enum(ADMIN_FUND_CATEGORIES).optional().default('REFUND_MAINTENANCE_COST'),
});

export const overdueLimitSchema = dollars((cents) =>
  cents < 0 ? ADMIN_MESSAGES.overdueInvalid : cents > ADMIN_LIMITS.overdueLimitMaxDollars * 100 ? ADMIN_MESSAGES.overdueMaximum : undefined,
);
export const changeOverduePayloadSchema = z.object({ outstanding_limit: overdueLimitSchema, user_id: z.uuid() });

export const updatedServiceRateSchema = z.object({
  dimension: z.enum(METERING_DIMENSIONS),
  /** Dollars per unit: up to 2 integer digits and 4 decimals, above 0. */
  rate: z.union([z.number(), z.string()]),
  /** Free units a month; only DATA_PROCESS and LOCAL_STORAGE have any. */
  freeUnits: z.union([z.number(), z.string()]).optional(),
});
export const changeServiceRatePayloadSchema = z.object({
  user_id: z.uuid(),
  updated_service_rates: z.array(updatedServiceRateSchema).min(1).max(METERING_DIMENSIONS.length),
  /** When the new rates take effect (UTC midnight of that day); today when absent. */
  effective_date: z.iso.date().optional(),
});
export type ChangeServiceRatePayload = z.output<typeof changeServiceRatePayloadSchema>;
/** The rate rule of spec section 5 for one typed rate: undefined when valid. */
export function rateError(value: string | number | undefined | null): string | undefined {
  const text = value === undefined || value === null ? '' : String(value).trim();
  if (text === '') return ADMIN_MESSAGES.rateRequired;
  // Only digits and a point running past the shape are a format error; a sign, an exponent or a letter is no rate at all.
  if (!RATE_PATTERN.test(text)) return /^\d*\.?\d*$/.test(text) && text !== '.' ? ADMIN_MESSAGES.rateFormat : ADMIN_MESSAGES.rateInvalid;
  if (Number(text) <= 0) return ADMIN_MESSAGES.rateInvalid;
  return undefined;
}
/** Free units: digits with up to 4 decimals, 0 allowed. */
export const FREE_UNITS_PATTERN = /^\d{1,6}(\.\d{1,4})?$/;
export function freeUnitsError(value: string | number | undefined | null): string | undefined {
  const text = value === undefined || value === null ? '' : String(value).trim();
  if (text === '') return ADMIN_MESSAGES.freeUnitsRequired;
  if (!FREE_UNITS_PATTERN.test(text)) return ADMIN_MESSAGES.freeUnitsInvalid;
  return undefined;
}

export const deleteClusterPayloadSchema = z.object({ deployment_id: z.uuid() });

/** POST /api/admin/action: one of the four actions for the customer user_id. */
export const adminActionRequestSchema = z
  .discriminatedUnion('action_name', [
    z.object({ action_name: z.literal('add_funds'), action_payload: addFundsPayloadSchema, user_id: z.uuid() }),
    z.object({ action_name: z.literal('change_service_rate'), action_payload: changeServiceRatePayloadSchema, user_id: z.uuid() }),
    z.object({ action_name: z.literal('change_overdue_limit'), action_payload: changeOverduePayloadSchema, user_id: z.uuid() }),
    z.object({ action_name: z.literal('delete_cluster'), action_payload: deleteClusterPayloadSchema, user_id: z.uuid() }),
  ])
  .meta({ id: 'AdminActionRequest' });
export type AdminActionRequest = z.input<typeof adminActionRequestSchema>;
export type AdminActionOrder = z.output<typeof adminActionRequestSchema>;

export const adminActionResponseSchema = z
  .object({ operation_id: z.uuid(), message: z.string(), expires_at: z.iso.datetime() })
  .meta({ id: 'AdminActionResponse' });
export type AdminActionResponse = z.infer<typeof adminActionResponseSchema>;

const adminOperationId = z.uuid({ error: ADMIN_MESSAGES.operationNotFound });
export const adminAuthenticateRequestSchema = z
  .object({
    operation_id: adminOperationId,
    otp: z
      .string({ error: MESSAGES.otpRequired })
      .trim()
      .min(1, MESSAGES.otpRequired)
      .regex(/^\d{6}$/, MESSAGES.otpFormat),
  })
  .meta({ id: 'AdminAuthenticateRequest' });
export type AdminAuthenticateRequest = z.infer<typeof adminAuthenticateRequestSchema>;
export const adminResendOtpRequestSchema = z.object({ operation_id: adminOperationId }).meta({ id: 'AdminResendOtpRequest' });
export type AdminResendOtpRequest = z.infer<typeof adminResendOtpRequestSchema>;

export const ADMIN_OPERATION_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'EXPIRED'] as const;

export const adminAuthenticateResponseSchema = z
  .object({
    operation_id: z.uuid(),
    action_name: z.enum(ADMIN_ACTIONS),
    status: z.enum(ADMIN_OPERATION_STATUSES),
    message: z.string(),
  })
  .meta({ id: 'AdminAuthenticateResponse' });
export type AdminAuthenticateResponse = z.infer<typeof adminAuthenticateResponseSchema>;

/** One line of what an action will do, in words: "Amount" → "$250.00 (Two Hundred Fifty USD)". */
export const actionDetailSchema = z.object({ label: z.string(), value: z.string() });
export type ActionDetail = z.infer<typeof actionDetailSchema>;

/**
 * GET /api/admin/approvals (waiting for my approval) and GET /api/admin/action/mine (asked by me, still waiting):
 * who, what in words (details), and until when. The frozen payload stays in action_payload for the record.
 */
export const pendingApprovalSchema = z.object({
  operation_id: z.uuid(),
  action_name: z.enum(ADMIN_ACTIONS),
  action_payload: z.record(z.string(), z.unknown()),
  customer_user_id: z.uuid(),
  customer_name: z.string(),
  customer_email: z.string(),
  details: z.array(actionDetailSchema),
  requested_by_email: z.string(),
  requested_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
});
export const pendingApprovalsSchema = z.array(pendingApprovalSchema).meta({ id: 'PendingApprovals' });
export type PendingApproval = z.infer<typeof pendingApprovalSchema>;

/** POST /api/admin/action/cancel: the requester withdraws an action still waiting for approval. */
export const adminCancelRequestSchema = z.object({ operation_id: adminOperationId }).meta({ id: 'AdminCancelRequest' });
export type AdminCancelRequest = z.infer<typeof adminCancelRequestSchema>;
export const adminCancelResponseSchema = z.object({ operation_id: z.uuid(), message: z.string() }).meta({ id: 'AdminCancelResponse' });
export type AdminCancelResponse = z.infer<typeof adminCancelResponseSchema>;

/**
 * The calls of spec section 7 under their own names: each asks for one four-eyes action exactly as POST /api/admin/action
 * does with that action_name (same checks, same approval), so its body is that action's, without the action_name.
 */
export const updateServiceRateRequestSchema = z
  .object({ action_payload: changeServiceRatePayloadSchema, user_id: z.uuid() })
  .meta({ id: 'UpdateServiceRateRequest' });
export const updateAccountMetricsRequestSchema = z
  .object({ action_payload: changeOverduePayloadSchema, user_id: z.uuid() })
  .meta({ id: 'UpdateAccountMetricsRequest' });
export const addAmountRequestSchema = z
  .object({ action_payload: addFundsPayloadSchema, user_id: z.uuid() })
  .meta({ id: 'AddAmountRequest' });
