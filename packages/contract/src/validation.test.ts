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
  it.each(['D', 'Dana  Demo', 'Dana D', 'Dana3', 'Dana-Demo'])('rejects %s', (value) => {
    expect(firstError(nameSchema, value)).toBe(MESSAGES.nameInvalid);
  });
  it('limits the length to 50', () => {
    expect(firstError(nameSchema, 'A'.repeat(51))).toBe(MESSAGES.nameTooLong);
    expect(firstError(nameSchema, 'A'.repeat(50))).toBeUndefined();
  });
  it('accepts words of letters separated by single spaces', () => {
    expect(nameSchema.parse('Dana Demo')).toBe('Dana Demo');
    expect(nameSchema.parse('Zoë Åberg')).toBe('Zoë Åberg');
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
