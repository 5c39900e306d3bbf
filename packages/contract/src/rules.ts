// The sign-in rules as plain functions, without zod: the sign-in screen is the console's first download and
// stays within its budget (apps/console/test/bundle-budget.test.ts). validation.ts builds the zod schemas the
// API parses with from these same patterns and messages, so the browser and the server agree on one rule set.
import { LIMITS, OTP } from './constants.js';
import { SIGN_IN_MESSAGES as MESSAGES } from './sign-in-messages.js';

// A practical e-mail shape: local@domain.tld, no spaces, a dot in the domain.
export const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
// Words of 2 to 50 letters separated by single spaces (spec section 5). A letter is one of any alphabet with its
// combining marks (Zoë, Łukasz, प्रिया); an apostrophe (' or ’) or a hyphen between two letters counts as a letter too
// (O'Neil, Smith-Jones), never at a word's edge nor two in a row.
const LETTER = String.raw`\p{L}\p{M}*`;
const NAME_WORD = String.raw`(?=[\p{L}\p{M}'’-]{2,50}(?: |$))(?:${LETTER})+(?:['’-](?:${LETTER})+)*`;
export const NAME_PATTERN = new RegExp(`^${NAME_WORD}(?: ${NAME_WORD})*$`, 'u');
export const OTP_PATTERN = new RegExp(`^\\d{${OTP.length}}$`);

// C0 controls (NUL, escape, ...), DEL and the C1 block. PostgreSQL refuses NUL in text; the rest only hides
// or garbles text on screens, in mail and in logs. Multi-line fields (remarks) keep tab and line breaks.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS_BUT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** True when the text holds no control character (tab and line breaks allowed when multiline). */
export function isPlainText(text: string, options: { multiline?: boolean } = {}): boolean {
  return !(options.multiline ? CONTROL_CHARACTERS_BUT_LINES : CONTROL_CHARACTERS).test(text);
}

/** The message for an e-mail address the API would refuse (emailSchema's order of checks), else undefined. */
export function emailError(value: string | undefined): string | undefined {
  const email = (value ?? '').trim();
  if (!email) return MESSAGES.emailRequired;
  if (email.length > LIMITS.emailMaxLength || !EMAIL_PATTERN.test(email)) return MESSAGES.emailInvalid;
  return undefined;
}

/** An e-mail address as the API keeps it (emailSchema's output): trimmed, in lower case. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** The message for a full name the API would refuse (nameSchema's order of checks), else undefined. */
export function nameError(value: string | undefined): string | undefined {
  const name = (value ?? '').trim();
  if (!name) return MESSAGES.nameRequired;
  if (name.length > LIMITS.nameMaxLength) return MESSAGES.nameTooLong;
  if (!NAME_PATTERN.test(name)) return MESSAGES.nameInvalid;
  return undefined;
}

/** Keeps what a user types into the name field within the rules: no leading spaces, at most 50 characters. */
export function normalizeNameInput(raw: string): string {
  return raw.replace(/^\s+/, '').slice(0, LIMITS.nameMaxLength);
}

/** Keeps only digits in the OTP field, at most the OTP length. */
export function normalizeOtpInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, OTP.length);
}
