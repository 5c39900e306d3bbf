import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages.js';
import { emailSchema, firstError, nameSchema, normalizeNameInput, normalizeOtpInput, otpSchema } from './validation.js';

describe('e-mail rule', () => {
  it('requires a value', () => {
    expect(firstError(emailSchema, '')).toBe(MESSAGES.emailRequired);
    expect(firstError(emailSchema, '   ')).toBe(MESSAGES.emailRequired);
    expect(firstError(emailSchema, undefined)).toBe(MESSAGES.emailRequired);
  });
  it.each(['plain', 'a@b', 'a b@c.io', '@kumo.cloud', 'x@.io', 'x@kumo..cloud'])('rejects %s', (value) => {
    expect(firstError(emailSchema, value)).toBe(MESSAGES.emailInvalid);
  });
  it('accepts and lower-cases a valid address', () => {
    expect(emailSchema.parse('  Dana.Demo+ops@Kumo.Cloud ')).toBe('dana.demo+ops@kumo.cloud');
  });
});

describe('name rule', () => {
  it('requires a value', () => {
    expect(firstError(nameSchema, '')).toBe(MESSAGES.nameRequired);
  });
  it.each(['D', 'Dana  Demo', 'Dana D', 'Dana3', 'Dana_Demo'])('rejects %s', (value) => {
    expect(firstError(nameSchema, value)).toBe(MESSAGES.nameInvalid);
  });
  // An apostrophe or a hyphen counts as a letter only between two letters of a word.
  it.each(['-Dana', 'Dana-', "O'", "'Neil", "O''Neil", 'Smith--Jones', "Smith-'Jones", "Jane O'Neil-", 'Jane -Smith', 'Dana - Demo'])(
    'rejects %s: an apostrophe or a hyphen at the edge of a word or doubled',
    (value) => {
      expect(firstError(nameSchema, value)).toBe('Invalid Name');
    },
  );
  it('limits the length to 50', () => {
    expect(firstError(nameSchema, 'A'.repeat(51))).toBe(MESSAGES.nameTooLong);
    expect(firstError(nameSchema, 'A'.repeat(50))).toBeUndefined();
  });
  it('accepts words of letters separated by single spaces', () => {
    expect(nameSchema.parse('Dana Demo')).toBe('Dana Demo');
    expect(nameSchema.parse('Zoë Åberg')).toBe('Zoë Åberg');
  });
  it.each([
    "Jane O'Neil-Smith",
    "O'Neil",
    'Smith-Jones',
    'Dana-Demo',
    'Jane O’Neil',
    'Zoë',
    'Łukasz Wiśniewski',
    'Zoe\u0308 Ström',
    'Ωmega Παπαδόπουλος',
    'Иван Петров',
    'प्रिया शर्मा',
  ])('accepts %s: letters of any alphabet, with an apostrophe or a hyphen inside a word', (value) => {
    expect(firstError(nameSchema, value)).toBeUndefined();
    expect(nameSchema.parse(value)).toBe(value);
  });
  it('counts an apostrophe or a hyphen as a letter of its word: 2 to 50 per word, 50 in all', () => {
    expect(firstError(nameSchema, "O'")).toBe(MESSAGES.nameInvalid);
    expect(firstError(nameSchema, 'Al-A')).toBeUndefined();
    expect(firstError(nameSchema, `${'A'.repeat(24)}-${'B'.repeat(25)}`)).toBeUndefined();
    expect(firstError(nameSchema, `${'A'.repeat(25)}-${'B'.repeat(25)}`)).toBe(MESSAGES.nameTooLong);
  });
  it('input drops leading spaces and is capped at 50', () => {
    expect(normalizeNameInput('   Dana')).toBe('Dana');
    expect(normalizeNameInput('x'.repeat(60))).toHaveLength(50);
  });
});

describe('OTP rule', () => {
  it('requires a value', () => {
    expect(firstError(otpSchema, '')).toBe(MESSAGES.otpRequired);
  });
  it.each(['12345', '1234567', '12a456'])('rejects %s', (value) => {
    expect(firstError(otpSchema, value)).toBe(MESSAGES.otpFormat);
  });
  it('accepts six digits', () => {
    expect(otpSchema.parse('012345')).toBe('012345');
  });
  it('input keeps digits only, at most six', () => {
    expect(normalizeOtpInput('12a-3 4567')).toBe('123456');
  });
});
