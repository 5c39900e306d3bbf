import { z } from 'zod';
import { AUTH_PROVIDERS, ROLES } from './roles.js';
import { emailSchema, nameSchema, otpSchema, plainText } from './validation.js';
import { LIMITS } from './constants.js';
import { permissionMapSchema } from './permissions.js';

const authProviderSchema = z.enum(AUTH_PROVIDERS).default('EMAIL_OTP_AUTH');
const idSchema = z.uuid();

export const loginRequestSchema = z.object({ email_id: emailSchema, auth_provider: authProviderSchema }).meta({ id: 'LoginRequest' });
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const otpSentResponseSchema = z.object({ otp_sent: z.boolean(), message: z.string() }).meta({ id: 'OtpSentResponse' });
export type OtpSentResponse = z.infer<typeof otpSentResponseSchema>;

export const registerRequestSchema = z
  .object({ email_id: emailSchema, user_name: nameSchema, auth_provider: authProviderSchema })
  .meta({ id: 'RegisterRequest' });
export type RegisterRequest = z.input<typeof registerRequestSchema>;

export const authenticateRequestSchema = z
  .object({
    email_id: emailSchema,
    otp: otpSchema,
    // Empty on login; the name given at sign-up is already held with the OTP.
    user_name: plainText(z.string().trim().max(LIMITS.nameMaxLength)).optional().default(''),
    account_id: idSchema.nullish(),
  })
  .meta({ id: 'AuthenticateRequest' });
export type AuthenticateRequest = z.input<typeof authenticateRequestSchema>;

export const authenticateResponseSchema = z.object({ role: z.enum(ROLES), sign_up: z.boolean() }).meta({ id: 'AuthenticateResponse' });
export type AuthenticateResponse = z.infer<typeof authenticateResponseSchema>;

export const resendOtpRequestSchema = z
  .object({ email_id: emailSchema, user_name: plainText(z.string().trim().max(LIMITS.nameMaxLength)).optional() })
  .meta({ id: 'ResendOtpRequest' });
export type ResendOtpRequest = z.input<typeof resendOtpRequestSchema>;

export const refreshTokenRequestSchema = z
  .object({ refresh_token: plainText(z.string().trim().min(1).max(512)) })
  .meta({ id: 'RefreshTokenRequest' });
export type RefreshTokenRequest = z.input<typeof refreshTokenRequestSchema>;

export const messageResponseSchema = z.object({ message: z.string() }).meta({ id: 'MessageResponse' });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const accountSchema = z
  .object({
    account_id: idSchema,
    role: z.enum(ROLES),
    logged_in: z.boolean(),
    account_owner_email_id: z.string(),
  })
  .meta({ id: 'Account' });
export type Account = z.infer<typeof accountSchema>;

export const userDetailSchema = z
  .object({
    userId: idSchema,
    userName: z.string(),
    emailId: z.string(),
    ownerEmailId: z.string().nullable(),
    authProvider: z.enum(AUTH_PROVIDERS),
    role: z.enum(ROLES),
    accounts: z.array(accountSchema),
    /** Staff only: the admin area's feature states for this person's role. */
    permissions: permissionMapSchema.optional(),
    /** Set when a staff member is viewing this customer's console, read-only: who they are. */
    userSwitched: z.object({ userName: z.string(), emailId: z.string(), expiresAt: z.iso.datetime() }).optional(),
  })
  .meta({ id: 'UserDetail' });
export type UserDetail = z.infer<typeof userDetailSchema>;

export const switchAccountRequestSchema = z.object({ switching_account_id: idSchema }).meta({ id: 'SwitchAccountRequest' });
export type SwitchAccountRequest = z.input<typeof switchAccountRequestSchema>;

/**
 * Staff single sign-on hands the session to the console's /oauth2/redirect page in its `token` query
 * value: URL-safe base64 of this JSON. The server builds it, the console parses it with this schema.
 */
export const ssoHandOffSchema = z.object({
  data: z.object({ jwt_token: z.string().min(1), refresh_token: z.string().min(1) }),
});
export type SsoHandOff = z.infer<typeof ssoHandOffSchema>;
