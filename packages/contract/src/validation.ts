import { z } from 'zod';
import { LIMITS, OTP } from './constants.js';
import { MESSAGES } from './messages.js';

// A practical e-mail shape: local@domain.tld, no spaces, a dot in the domain.
const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
// Words of 2 to 50 letters separated by single spaces (spec section 5).
const NAME_PATTERN = /^\p{L}{2,50}(?: \p{L}{2,50})*$/u;
const OTP_PATTERN = new RegExp(`^\\d{${OTP.length}}$`);

export const emailSchema = z
  .string({ error: MESSAGES.emailRequired })
  .trim()
  .min(1, MESSAGES.emailRequired)
  .max(LIMITS.emailMaxLength, MESSAGES.emailInvalid)
  .regex(EMAIL_PATTERN, MESSAGES.emailInvalid)
  .transform((email) => email.toLowerCase());

export const nameSchema = z
  .string({ error: MESSAGES.nameRequired })
  .trim()
  .min(1, MESSAGES.nameRequired)
  .max(LIMITS.nameMaxLength, MESSAGES.nameTooLong)
  .regex(NAME_PATTERN, MESSAGES.nameInvalid);

export const otpSchema = z
  .string({ error: MESSAGES.otpRequired })
  .trim()
  .min(1, MESSAGES.otpRequired)
  .regex(OTP_PATTERN, MESSAGES.otpFormat);

/** First message of a failed parse, for inline form errors. */
export function firstError(schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}

/** Keeps what a user types into the name field within the rules: no leading spaces, at most 50 characters. */
export function normalizeNameInput(raw: string): string {
  return raw.replace(/^\s+/, '').slice(0, LIMITS.nameMaxLength);
}

/** Keeps only digits in the OTP field, at most the OTP length. */
export function normalizeOtpInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, OTP.length);
}
