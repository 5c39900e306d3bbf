import { randomUUID } from 'node:crypto';
import { createAuthRepository } from '../../src/modules/auth/auth.repository.js';
import type { TestContext } from './harness.js';

export interface Customer {
  userId: string;
  accountId: string;
}

/** An account owner made straight in the database, for tests that drive the services rather than HTTP. */
export async function newCustomer(ctx: TestContext, name = 'Ledger Tester'): Promise<Customer> {
  const repository = createAuthRepository(ctx.database.db);
  const user = await repository.insertUser({ email: `${randomUUID()}@example.com`, name, createdAt: ctx.clock.now() });
  const accountId = await repository.insertAccountWithOwner(user.id, ctx.clock.now());
  return { userId: user.id, accountId };
}

/** A subscription of the customer; the account's first one carries the sign-up credits. */
export async function newSubscription(ctx: TestContext, customer: Customer, name = `Sub ${randomUUID().slice(0, 8)}`): Promise<string> {
  return ctx.services.subscriptions.create(customer.accountId, customer.userId, {
    subscription_name: `Sub${name.replace(/[^A-Za-z0-9]/g, '').slice(0, 40)}`,
    remark: '',
    subscription_type: 'PREPAID',
  });
}

/** Runs the jobs the services queued (the recording queue keeps them), as the workers would. */
export async function drainJobs(
  ctx: TestContext,
  queue: string,
  handler: (data: Record<string, unknown>) => Promise<void>,
): Promise<number> {
  const pending = ctx.jobs.sent.filter((job) => job.queue === queue);
  ctx.jobs.sent.splice(0, ctx.jobs.sent.length, ...ctx.jobs.sent.filter((job) => job.queue !== queue));
  for (const job of pending) await handler(job.data);
  return pending.length;
}
