import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { DAY, HOUR, MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import {
  errorCode,
  errorMessage,
  get,
  latestOtp,
  logIn,
  post,
  signUp,
  startTestApp,
  tokensOf,
  type TestContext,
  errorDetail,
} from '../../../test/support/harness.js';

const kinds = await databaseKinds();
let counter = 0;
const freshEmail = () => `person${++counter}.${Date.now()}@example.com`;

describe.each(kinds)('auth on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  describe('sign-up', () => {
    it('sends an OTP with a text and an HTML part, then creates the owner and signs them in', async () => {
      const email = freshEmail();
      const started = await post(ctx, '/api/user/register', { email_id: email, user_name: 'Dana Demo', auth_provider: 'EMAIL_OTP_AUTH' });
      expect(started.statusCode).toBe(200);
      expect(started.json()).toEqual({ otp_sent: true, message: MESSAGES.otpSent });

      const [mail] = (await ctx.services.mail.listRecent(5)).filter((row) => row.toAddress === email);
      const otp = await latestOtp(ctx, email);
      expect(mail?.textBody).toContain(otp);
      expect(mail?.htmlBody).toContain(otp);
      expect(mail?.subject).not.toContain(otp);
      expect(ctx.jobs.sent).toContainEqual({ queue: 'mail-deliver', data: { id: mail?.id } });

      const done = await post(ctx, '/api/user/authenticate', { email_id: email, otp, user_name: 'Dana Demo' });
      expect(done.statusCode).toBe(200);
      expect(done.json()).toEqual({ role: 'ACCOUNT_OWNER', sign_up: true });
      const tokens = tokensOf(done);
      expect(tokens.jwt.split('.')).toHaveLength(3);
      expect(tokens.refresh.length).toBeGreaterThan(30);

      const detail = await get(ctx, '/api/user/detail', tokens.jwt);
      expect(detail.statusCode).toBe(200);
      const body = detail.json();
      expect(body).toMatchObject({
        userName: 'Dana Demo',
        emailId: email,
        ownerEmailId: email,
        authProvider: 'EMAIL_OTP_AUTH',
        role: 'ACCOUNT_OWNER',
      });
      expect(body.accounts).toHaveLength(1);
      expect(body.accounts[0]).toMatchObject({ role: 'ACCOUNT_OWNER', logged_in: true, account_owner_email_id: email });
    });

    it('refuses an e-mail that is already registered', async () => {
      const email = freshEmail();
      await signUp(ctx, email);
      const again = await post(ctx, '/api/user/register', { email_id: email, user_name: 'Dana Demo', auth_provider: 'EMAIL_OTP_AUTH' });
      expect(again.statusCode).toBe(409);
      expect(errorCode(again)).toBe('USER_ALREADY_EXISTS');
    });

    it('creates nothing until the OTP is proven', async () => {
      const email = freshEmail();
      await post(ctx, '/api/user/register', { email_id: email, user_name: 'Dana Demo', auth_provider: 'EMAIL_OTP_AUTH' });
      const login = await post(ctx, '/api/user/login', { email_id: email, auth_provider: 'EMAIL_OTP_AUTH' });
      expect(login.statusCode).toBe(404);
    });
  });

  describe('login', () => {
    it('tells an unknown e-mail to sign up', async () => {
      const response = await post(ctx, '/api/user/login', { email_id: freshEmail(), auth_provider: 'EMAIL_OTP_AUTH' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        errorDetails: { error_code: 'USER_NOT_FOUND', error_message: MESSAGES.userNotRegistered, request_id: expect.any(String) },
      });
    });

    it('signs a known person in with sign_up false', async () => {
      const email = freshEmail();
      await signUp(ctx, email);
      await post(ctx, '/api/user/login', { email_id: email, auth_provider: 'EMAIL_OTP_AUTH' });
      const done = await post(ctx, '/api/user/authenticate', { email_id: email, otp: await latestOtp(ctx, email), user_name: '' });
      expect(done.json()).toEqual({ role: 'ACCOUNT_OWNER', sign_up: false });
    });

    it('refuses a wrong OTP, and an OTP used once cannot be used again', async () => {
      const email = freshEmail();
      await signUp(ctx, email);
      await post(ctx, '/api/user/login', { email_id: email });
      const otp = await latestOtp(ctx, email);
      const wrong = await post(ctx, '/api/user/authenticate', { email_id: email, otp: otp === '000000' ? '111111' : '000000' });
      expect(wrong.statusCode).toBe(422);
      expect(errorCode(wrong)).toBe('OTP_INVALID');
      expect(errorMessage(wrong)).toBe(MESSAGES.otpInvalid);
      expect((await post(ctx, '/api/user/authenticate', { email_id: email, otp })).statusCode).toBe(200);
      const reused = await post(ctx, '/api/user/authenticate', { email_id: email, otp });
      expect(reused.statusCode).toBe(422);
      expect(errorCode(reused)).toBe('OTP_NOT_REQUESTED');
    });

    it('refuses an OTP older than 10 minutes', async () => {
      const email = freshEmail();
      await signUp(ctx, email);
      await post(ctx, '/api/user/login', { email_id: email });
      const otp = await latestOtp(ctx, email);
      ctx.clock.advance(10 * MINUTE + 1000);
      const late = await post(ctx, '/api/user/authenticate', { email_id: email, otp });
      expect(late.statusCode).toBe(422);
      expect(late.json().errorDetails).toEqual(errorDetail('OTP_EXPIRED', MESSAGES.otpExpired));
    });

    it('locks the e-mail until the end of the UTC day after three consecutive invalid OTPs', async () => {
      const email = freshEmail();
      await signUp(ctx, email);
      ctx.clock.set('2026-03-11T22:00:00Z');
      await post(ctx, '/api/user/login', { email_id: email });
      const otp = await latestOtp(ctx, email);
      const wrong = otp === '000000' ? '111111' : '000000';
      expect(errorCode(await post(ctx, '/api/user/authenticate', { email_id: email, otp: wrong }))).toBe('OTP_INVALID');
      expect(errorCode(await post(ctx, '/api/user/authenticate', { email_id: email, otp: wrong }))).toBe('OTP_INVALID');
      const third = await post(ctx, '/api/user/authenticate', { email_id: email, otp: wrong });
      expect(third.statusCode).toBe(422);
      expect(third.json().errorDetails).toEqual(errorDetail('OTP_LOCKED', MESSAGES.otpLocked));

      expect(errorCode(await post(ctx, '/api/user/authenticate', { email_id: email, otp }))).toBe('OTP_LOCKED');
      expect(errorCode(await post(ctx, '/api/user/login', { email_id: email }))).toBe('OTP_LOCKED');
      ctx.clock.set('2026-03-11T23:59:59Z');
      expect(errorCode(await post(ctx, '/api/user/login', { email_id: email }))).toBe('OTP_LOCKED');
      ctx.clock.set('2026-03-12T00:00:01Z');
      await logIn(ctx, email);
    });

    it('locks after three invalid OTPs within an hour even with a success between them', async () => {
      const email = freshEmail();
      await signUp(ctx, email);
      ctx.clock.set('2026-03-13T10:00:00Z');
      const tryWrong = async () => {
        await post(ctx, '/api/user/login', { email_id: email });
        const otp = await latestOtp(ctx, email);
        return post(ctx, '/api/user/authenticate', { email_id: email, otp: otp === '000000' ? '111111' : '000000' });
      };
      expect(errorCode(await tryWrong())).toBe('OTP_INVALID');
      expect(errorCode(await tryWrong())).toBe('OTP_INVALID');
      await logIn(ctx, email);
      ctx.clock.advance(30 * MINUTE);
      expect(errorCode(await tryWrong())).toBe('OTP_LOCKED');
    });

    it('does not lock for two invalid OTPs an hour apart followed by a success', async () => {
      const email = freshEmail();
      await signUp(ctx, email);
      ctx.clock.set('2026-03-14T08:00:00Z');
      await post(ctx, '/api/user/login', { email_id: email });
      const otp = await latestOtp(ctx, email);
      const wrong = otp === '000000' ? '111111' : '000000';
      expect(errorCode(await post(ctx, '/api/user/authenticate', { email_id: email, otp: wrong }))).toBe('OTP_INVALID');
      ctx.clock.advance(HOUR + MINUTE);
      await post(ctx, '/api/user/login', { email_id: email });
      const second = await latestOtp(ctx, email);
      expect(
        errorCode(await post(ctx, '/api/user/authenticate', { email_id: email, otp: second === '000000' ? '111111' : '000000' })),
      ).toBe('OTP_INVALID');
      expect((await post(ctx, '/api/user/authenticate', { email_id: email, otp: second })).statusCode).toBe(200);
    });
  });

  describe('resend', () => {
    it('replaces the OTP: only the newest one works', async () => {
      const email = freshEmail();
      await post(ctx, '/api/user/register', { email_id: email, user_name: 'Rae Resend' });
      const first = await latestOtp(ctx, email);
      const resent = await post(ctx, '/api/user/resend-otp', { email_id: email, user_name: 'Rae Resend' });
      expect(resent.statusCode).toBe(200);
      const second = await latestOtp(ctx, email);
      if (first !== second) {
        expect(errorCode(await post(ctx, '/api/user/authenticate', { email_id: email, otp: first }))).toBe('OTP_INVALID');
      }
      const done = await post(ctx, '/api/user/authenticate', { email_id: email, otp: second, user_name: 'Rae Resend' });
      expect(done.json()).toEqual({ role: 'ACCOUNT_OWNER', sign_up: true });
      const detail = await get(ctx, '/api/user/detail', tokensOf(done).jwt);
      expect(detail.json().userName).toBe('Rae Resend');
    });

    it('allows five resends an hour, then refuses until the hour has passed', async () => {
      const email = freshEmail();
      await signUp(ctx, email);
      ctx.clock.advance(2 * HOUR);
      await post(ctx, '/api/user/login', { email_id: email });
      for (let resend = 1; resend <= 5; resend++) {
        expect((await post(ctx, '/api/user/resend-otp', { email_id: email })).statusCode).toBe(200);
      }
      const refused = await post(ctx, '/api/user/resend-otp', { email_id: email });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().errorDetails).toEqual(errorDetail('OTP_RESEND_LIMIT', MESSAGES.otpResendLimit));
      ctx.clock.advance(HOUR + MINUTE);
      expect((await post(ctx, '/api/user/resend-otp', { email_id: email })).statusCode).toBe(200);
    });

    it('needs a pending OTP request', async () => {
      const response = await post(ctx, '/api/user/resend-otp', { email_id: freshEmail() });
      expect(response.statusCode).toBe(422);
      expect(errorCode(response)).toBe('OTP_NOT_REQUESTED');
    });
  });

  describe('tokens', () => {
    it('an expired access token gets "JWT Token has expired." and a refresh brings a working one', async () => {
      const tokens = await signUp(ctx, freshEmail());
      ctx.clock.advance(16 * MINUTE);
      const expired = await get(ctx, '/api/user/detail', tokens.jwt);
      expect(expired.statusCode).toBe(401);
      expect(expired.json().errorDetails).toEqual(errorDetail('TOKEN_EXPIRED', MESSAGES.jwtExpired));
      const refreshed = await post(ctx, '/api/user/refresh-token', { refresh_token: tokens.refresh });
      expect(refreshed.statusCode).toBe(200);
      const next = tokensOf(refreshed);
      expect(next.refresh).not.toBe(tokens.refresh);
      expect((await get(ctx, '/api/user/detail', next.jwt)).statusCode).toBe(200);
    });

    it('a reused refresh token is refused and revokes its whole family', async () => {
      const tokens = await signUp(ctx, freshEmail());
      const rotated = tokensOf(await post(ctx, '/api/user/refresh-token', { refresh_token: tokens.refresh }));
      const replay = await post(ctx, '/api/user/refresh-token', { refresh_token: tokens.refresh });
      expect(replay.statusCode).toBe(401);
      expect(replay.json().errorDetails).toEqual(errorDetail('REFRESH_TOKEN_INVALID', MESSAGES.refreshInvalid));
      expect((await post(ctx, '/api/user/refresh-token', { refresh_token: rotated.refresh })).statusCode).toBe(401);
      expect((await get(ctx, '/api/user/detail', rotated.jwt)).statusCode).toBe(401);
    });

    it('a refresh token older than 7 days has expired', async () => {
      const tokens = await signUp(ctx, freshEmail());
      ctx.clock.advance(7 * DAY + MINUTE);
      const response = await post(ctx, '/api/user/refresh-token', { refresh_token: tokens.refresh });
      expect(response.statusCode).toBe(401);
      expect(response.json().errorDetails).toEqual(errorDetail('REFRESH_TOKEN_EXPIRED', MESSAGES.refreshExpired));
    });

    it('an unknown refresh token is invalid', async () => {
      const response = await post(ctx, '/api/user/refresh-token', { refresh_token: 'not-a-token' });
      expect(response.statusCode).toBe(401);
      expect(errorCode(response)).toBe('REFRESH_TOKEN_INVALID');
    });

    it('refuses tokens that are forged, of another algorithm or missing', async () => {
      const tokens = await signUp(ctx, freshEmail());
      const [header, payload] = tokens.jwt.split('.');
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'access+jwt' })).toString('base64url')}.${payload}.`;
      expect((await get(ctx, '/api/user/detail', unsigned)).statusCode).toBe(401);
      expect((await get(ctx, '/api/user/detail', `${header}.${payload}.AAAA`)).statusCode).toBe(401);
      const missing = await get(ctx, '/api/user/detail');
      expect(missing.statusCode).toBe(401);
      expect(errorCode(missing)).toBe('TOKEN_MISSING');
    });

    it('logout ends the session on the server: its refresh and access tokens stop working', async () => {
      const tokens = await signUp(ctx, freshEmail());
      const out = await post(ctx, '/api/user/logout', {}, tokens.jwt);
      expect(out.statusCode).toBe(200);
      expect((await post(ctx, '/api/user/refresh-token', { refresh_token: tokens.refresh })).statusCode).toBe(401);
      expect((await get(ctx, '/api/user/detail', tokens.jwt)).statusCode).toBe(401);
    });
  });

  describe('staff', () => {
    it('a staff member signs in with their system role and lists customers; a customer may not', async () => {
      const customer = freshEmail();
      const customerTokens = await signUp(ctx, customer, 'Cora Customer');
      const { seedDemoPeople, DEMO_STAFF } = await import('../../demo/seed.js');
      await seedDemoPeople(ctx.database.db, ctx.clock);
      await post(ctx, '/api/user/login', { email_id: DEMO_STAFF.email });
      const done = await post(ctx, '/api/user/authenticate', { email_id: DEMO_STAFF.email, otp: await latestOtp(ctx, DEMO_STAFF.email) });
      expect(done.json()).toEqual({ role: 'SYSTEM_ADMIN', sign_up: false });
      const staff = tokensOf(done);
      const detail = (await get(ctx, '/api/user/detail', staff.jwt)).json();
      expect(detail).toMatchObject({ role: 'SYSTEM_ADMIN', accounts: [], ownerEmailId: null });

      const list = await get(ctx, '/api/admin/users?page=0&size=50', staff.jwt);
      expect(list.statusCode).toBe(200);
      expect(list.json().content).toContainEqual(expect.objectContaining({ email_id: customer, user_name: 'Cora Customer' }));
      expect(list.json().content.map((row: { email_id: string }) => row.email_id)).not.toContain(DEMO_STAFF.email);

      const refused = await get(ctx, '/api/admin/users', customerTokens.jwt);
      expect(refused.statusCode).toBe(403);
      expect(errorCode(refused)).toBe('FORBIDDEN');
      expect((await get(ctx, '/api/admin/users?size=0', staff.jwt)).statusCode).toBe(400);
    });
  });
});
