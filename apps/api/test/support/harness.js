import { pino } from 'pino';
import { buildApp } from '../../src/app.js';
import { createServices } from '../../src/services.js';
import { openTestDatabase } from './databases.js';
import { ManualClock } from './manual-clock.js';
export const TEST_SECRET = 'test-secret-that-is-long-enough-for-hmac-and-jwt';
/** Records what the services queue instead of running workers; mail is read from the outbox. */
export class RecordingQueue {
    sent = [];
    async send(queue, data) {
        this.sent.push({ queue, data });
    }
}
export class RecordingTransport {
    kind = 'smtp';
    delivered = [];
    async send(mail) {
        this.delivered.push(mail);
    }
    close() { }
}
export async function startTestApp(kind, options = {}) {
    const database = await openTestDatabase(kind);
    const clock = new ManualClock('2026-03-10T09:00:00Z');
    const jobs = new RecordingQueue();
    const logger = pino({ level: 'silent' });
    const services = createServices({
        db: database.db,
        clock,
        jobs,
        mailTransport: new RecordingTransport(),
        mailFrom: 'Kumo Cloud <no-reply@kumo.test>',
        authSecret: TEST_SECRET,
        logger,
    });
    const app = await buildApp({ services, logger, ping: database.ping, authRateLimit: options.authRateLimit ?? 10_000, devMailbox: true });
    await app.ready();
    return {
        app,
        database,
        services,
        clock,
        jobs,
        async close() {
            await app.close();
            await database.close();
        },
    };
}
/** The OTP in the newest mail to `email`. */
export async function latestOtp(ctx, email) {
    const mails = await ctx.services.mail.listRecent(50);
    const mail = mails.find((row) => row.toAddress === email);
    const otp = mail?.textBody.match(/\b(\d{6})\b/)?.[1];
    if (!otp)
        throw new Error(`no OTP mail for ${email}`);
    return otp;
}
export function post(ctx, url, payload, token) {
    return ctx.app.inject({ method: 'POST', url, payload: payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
}
export function get(ctx, url, token) {
    return ctx.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
}
export function tokensOf(response) {
    return { jwt: String(response.headers.jwt_token), refresh: String(response.headers.refresh_token) };
}
/** Signs a new customer up through the API and returns their tokens. */
export async function signUp(ctx, email, name = 'Dana Demo') {
    const started = await post(ctx, '/api/user/register', { email_id: email, user_name: name, auth_provider: 'EMAIL_OTP_AUTH' });
    if (started.statusCode !== 200)
        throw new Error(`register failed: ${started.body}`);
    const done = await post(ctx, '/api/user/authenticate', { email_id: email, otp: await latestOtp(ctx, email), user_name: name });
    if (done.statusCode !== 200)
        throw new Error(`authenticate failed: ${done.body}`);
    return tokensOf(done);
}
/** Signs an existing person in through the API. */
export async function logIn(ctx, email) {
    const started = await post(ctx, '/api/user/login', { email_id: email, auth_provider: 'EMAIL_OTP_AUTH' });
    if (started.statusCode !== 200)
        throw new Error(`login failed: ${started.body}`);
    const done = await post(ctx, '/api/user/authenticate', { email_id: email, otp: await latestOtp(ctx, email), user_name: '' });
    if (done.statusCode !== 200)
        throw new Error(`authenticate failed: ${done.body}`);
    return tokensOf(done);
}
export const errorCode = (response) => response.json().errorDetails?.error_code;
export const errorMessage = (response) => response.json().errorDetails?.error_message;
//# sourceMappingURL=harness.js.map