import { z } from 'zod';
import { LIMITS } from './constants.js';
import { MESSAGES } from './messages.js';
import { EMAIL_PATTERN, NAME_PATTERN, OTP_PATTERN, isPlainText, normalizeEmail } from './rules.js';

// The patterns and the zod-free checks live in rules.ts (the sign-in screen uses them without zod).
export { isPlainText, normalizeNameInput, normalizeOtpInput } from './rules.js';

/** The refinement every free-text request field carries, so a NUL is a 400 with a clear message, never a database error. */
export function plainText<T extends z.ZodType<string, string>>(schema: T, options: { multiline?: boolean } = {}): T {
  return schema.refine((text) => isPlainText(text, options), MESSAGES.controlCharacters);
}

/** A trimmed free-text field of at most `max` characters without control characters. */
export const freeTextSchema = (max: number, options: { multiline?: boolean } = {}) => plainText(z.string().trim().max(max), options);

export const emailSchema = z
  .string({ error: MESSAGES.emailRequired })
  .trim()
  .min(1, MESSAGES.emailRequired)
  .max(LIMITS.emailMaxLength, MESSAGES.emailInvalid)
  .regex(EMAIL_PATTERN, MESSAGES.emailInvalid)
  .transform(normalizeEmail);

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
