import { z } from 'zod';
import { CLUSTER_MESSAGES, MESSAGES } from './messages.js';
import { CLUSTER_STATUSES } from './cluster-states.js';

// ---------------------------------------------------------------------------------------------
// Delete with the approver's OTP
// ---------------------------------------------------------------------------------------------

export const OPERATION_ACTIONS = ['customer_delete_cluster'] as const;
export const OPERATION_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'EXPIRED'] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

export const createOperationRequestSchema = z
  .object({
    action_name: z.enum(OPERATION_ACTIONS, { error: CLUSTER_MESSAGES.operationUnknown }),
    action_payload: z.object({ deployment_id: z.uuid({ error: CLUSTER_MESSAGES.clusterNotFound }) }),
  })
  .meta({ id: 'CreateOperationRequest' });
export type CreateOperationRequest = z.infer<typeof createOperationRequestSchema>;

export const createOperationResponseSchema = z
  .object({
    operation_id: z.uuid(),
    message: z.string(),
    /** Where the OTP went: the account owner's e-mail. */
    approver_email: z.string(),
    /** The OTP went to the person asking: she is the account owner. */
    sent_to_you: z.boolean(),
  })
  .meta({ id: 'CreateOperationResponse' });
export type CreateOperationResponse = z.infer<typeof createOperationResponseSchema>;

const operationIdField = z.uuid({ error: CLUSTER_MESSAGES.operationNotFound });
export const authenticateOperationRequestSchema = z
  .object({
    operation_id: operationIdField,
    otp: z
      .string({ error: MESSAGES.otpRequired })
      .trim()
      .min(1, MESSAGES.otpRequired)
      .regex(/^\d{6}$/, MESSAGES.otpFormat),
  })
  .meta({ id: 'AuthenticateOperationRequest' });
export type AuthenticateOperationRequest = z.infer<typeof authenticateOperationRequestSchema>;
export const resendOperationOtpRequestSchema = z.object({ operation_id: operationIdField }).meta({ id: 'ResendOperationOtpRequest' });
export type ResendOperationOtpRequest = z.infer<typeof resendOperationOtpRequestSchema>;

export const operationResultSchema = z
  .object({ operation_id: z.uuid(), status: z.enum(OPERATION_STATUSES), message: z.string() })
  .meta({ id: 'OperationResult' });
export type OperationResult = z.infer<typeof operationResultSchema>;

export const operationIdParamsSchema = z.object({ operationId: operationIdField });
export const operationStatusResponseSchema = z
  .object({
    operation_id: z.uuid(),
    action_name: z.enum(OPERATION_ACTIONS),
    status: z.enum(OPERATION_STATUSES),
    deployment_id: z.uuid(),
    cluster_name: z.string(),
    subscription_name: z.string(),
    cluster_status: z.enum(CLUSTER_STATUSES),
    expires_at: z.iso.datetime(),
  })
  .meta({ id: 'OperationStatus' });
export type OperationStatusResponse = z.infer<typeof operationStatusResponseSchema>;
