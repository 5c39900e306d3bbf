import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { MailTransport, OutgoingMail } from '../../src/adapters/mail/mail-transport.js';
import type { DatabaseHandle } from '../../src/db/client.js';
import type { JobQueue } from '../../src/jobs/job-queue.js';
import { type Services } from '../../src/services.js';
import { type DatabaseKind } from './databases.js';
import { ManualClock } from './manual-clock.js';
export declare const TEST_SECRET = "test-secret-that-is-long-enough-for-hmac-and-jwt";
/** Records what the services queue instead of running workers; mail is read from the outbox. */
export declare class RecordingQueue implements JobQueue {
    readonly sent: {
        queue: string;
        data: Record<string, unknown>;
    }[];
    send(queue: string, data: Record<string, unknown>): Promise<void>;
}
export declare class RecordingTransport implements MailTransport {
    readonly kind: "smtp";
    readonly delivered: OutgoingMail[];
    send(mail: OutgoingMail): Promise<void>;
    close(): void;
}
export interface TestContext {
    app: FastifyInstance;
    database: DatabaseHandle;
    services: Services;
    clock: ManualClock;
    jobs: RecordingQueue;
    close(): Promise<void>;
}
export declare function startTestApp(kind: DatabaseKind, options?: {
    authRateLimit?: number;
}): Promise<TestContext>;
/** The OTP in the newest mail to `email`. */
export declare function latestOtp(ctx: TestContext, email: string): Promise<string>;
export declare function post(ctx: TestContext, url: string, payload: unknown, token?: string): Promise<LightMyRequestResponse>;
export declare function get(ctx: TestContext, url: string, token?: string): Promise<LightMyRequestResponse>;
export interface Tokens {
    jwt: string;
    refresh: string;
}
export declare function tokensOf(response: LightMyRequestResponse): Tokens;
/** Signs a new customer up through the API and returns their tokens. */
export declare function signUp(ctx: TestContext, email: string, name?: string): Promise<Tokens>;
/** Signs an existing person in through the API. */
export declare function logIn(ctx: TestContext, email: string): Promise<Tokens>;
export declare const errorCode: (response: LightMyRequestResponse) => string | undefined;
export declare const errorMessage: (response: LightMyRequestResponse) => string | undefined;
