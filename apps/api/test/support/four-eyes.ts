import type { SystemRole } from '@kumo/contract';
import { createSubscription } from './checkout.js';
import { get, latestOtp, logIn, post, signUp, type TestContext, type Tokens } from './harness.js';
import { insertStaff } from './staff.js';

let counter = 0;

/** Staff of every role, customers and the calls of the four-eyes tests; `context` reads the suite's app once it is started. */
export function fourEyesSteps(context: () => TestContext) {
  const stamp = Date.now();
  const emails = {
    adminA: `four.admin-a.${stamp}@kumo.test`,
    adminB: `four.admin-b.${stamp}@kumo.test`,
    billing: `four.billing.${stamp}@kumo.test`,
    devops: `four.devops.${stamp}@kumo.test`,
    support: `four.support.${stamp}@kumo.test`,
  };
  const staff: Record<keyof typeof emails, Tokens> = {} as never;

  /** Makes two system admins and one staff member of each other role, each signed in (in `staff`). */
  async function signInStaff() {
    const ctx = context();
    const roles: Record<keyof typeof emails, SystemRole> = {
      adminA: 'SYSTEM_ADMIN',
      adminB: 'SYSTEM_ADMIN',
      billing: 'SYSTEM_BILLING',
      devops: 'SYSTEM_DEVOPS',
      support: 'SYSTEM_SUPPORT',
    };
    for (const [who, email] of Object.entries(emails) as [keyof typeof emails, string][]) {
      await insertStaff(ctx, email, 'Stan Staff', roles[who]);
      staff[who] = await logIn(ctx, email);
    }
  }

  /** A customer with a subscription (its $500 sign-up credits); `serial` tells customers apart in names. */
  async function customer() {
    const ctx = context();
    const serial = ++counter;
    const email = `four.customer${serial}.${stamp}@example.com`;
    const tokens = await signUp(ctx, email, 'Cora Customer');
    const subscriptionId = await createSubscription(ctx, tokens.jwt, `Main${serial}`);
    const userId = (await get(ctx, '/api/user/detail', tokens.jwt)).json().userId as string;
    const accountId = (await get(ctx, '/api/user/detail', tokens.jwt)).json().accounts[0].account_id as string;
    return { email, tokens, subscriptionId, userId, accountId, serial };
  }

  const addFunds = (c: { userId: string; subscriptionId: string }, amount = 250, remark = 'Outage on 3 March') => ({
    action_name: 'add_funds',
    user_id: c.userId,
    action_payload: {
      amount,
      event_name: 'ADMIN_ADD_FUNDS',
      iso_currency_code: 'USD',
      mode: 'FREE',
      remark,
      subscription_id: c.subscriptionId,
    },
  });

  /** Staff member `by` asks for an action; it then waits for an approver's OTP. */
  const ask = (action: Record<string, unknown>, by: Tokens) => post(context(), '/api/admin/action', action, by.jwt);
  /** `by` completes an operation with an OTP: the one last mailed to approver A unless given. */
  const complete = async (operationId: string, by: Tokens, otp?: string) =>
    post(
      context(),
      '/api/admin/action/authenticate',
      { operation_id: operationId, otp: otp ?? (await latestOtp(context(), emails.adminA)) },
      by.jwt,
    );

  /** Mails (to anyone) sent after the given count. */
  const mailsTo = async (email: string) => (await context().services.mail.listRecent(500)).filter((row) => row.toAddress === email);
  const transactions = async (c: { tokens: Tokens; subscriptionId: string }) =>
    (await get(context(), `/api/credit/view/credit-transactions/${c.subscriptionId}?page=0&size=20`, c.tokens.jwt)).json().content as {
      category: string;
      remark: string;
      amount: number;
    }[];

  return { emails, staff, signInStaff, customer, addFunds, ask, complete, mailsTo, transactions };
}
