import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isErrorResponse } from './errors.js';
import { errorResponseSchema } from './error-schema.js';
import { emailError, nameError, normalizeEmail } from './rules.js';
import { emailSchema, firstError, nameSchema } from './validation.js';

// The sign-in screen checks with these zod-free rules and the API with the zod schemas: they must agree.
const EMAILS = [
  '',
  '   ',
  'ada',
  'ada@',
  'ada@example',
  'ada@example.com',
  ' Ada@Example.COM ',
  'a b@example.com',
  `${'a'.repeat(250)}@x.io`,
];
const NAMES = [
  ...['', '  ', 'A', 'Ada', 'Ada Lovelace', 'Ada  Lovelace', 'Ada1', 'Zoë Åberg', 'A'.repeat(50), 'A'.repeat(51), ' Ada '],
  ...["Jane O'Neil-Smith", 'Jane O’Neil', 'Łukasz', "O'", '-Ada', 'Ada--Lovelace', `${'A'.repeat(25)}-${'B'.repeat(25)}`],
];

describe('zod-free sign-in rules', () => {
  it.each(EMAILS)('e-mail %j: the same message as emailSchema', (value) => {
    expect(emailError(value)).toBe(firstError(emailSchema, value));
  });

  it('normalises an e-mail address as emailSchema does', () => {
    expect(normalizeEmail(' Ada@Example.COM ')).toBe(emailSchema.parse(' Ada@Example.COM '));
  });

  it.each(NAMES)('name %j: the same message as nameSchema', (value) => {
    expect(nameError(value)).toBe(firstError(nameSchema, value));
  });
});

describe('isErrorResponse', () => {
  const bodies: unknown[] = [
    undefined,
    null,
    'text',
    {},
    { errorDetails: null },
    { errorDetails: { error_code: 'OTP_INVALID' } },
    { errorDetails: { error_code: 'NO_SUCH_CODE', error_message: 'x' } },
    { errorDetails: { error_code: 'OTP_INVALID', error_message: 'Invalid OTP' } },
    { errorDetails: { error_code: ERROR_CODES[0], error_message: '' }, field_errors: { email_id: 'bad' } },
    { errorDetails: { error_code: ERROR_CODES[0], error_message: '' }, field_errors: { email_id: 1 } },
    { errorDetails: { error_code: ERROR_CODES[0], error_message: '' }, field_errors: 'bad' },
  ];

  it.each(bodies.map((body) => [JSON.stringify(body) ?? 'undefined', body]))('%s: as errorResponseSchema decides', (_, body) => {
    expect(isErrorResponse(body)).toBe(errorResponseSchema.safeParse(body).success);
  });
});
