import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { permissionsFor } from '@kumo/contract';
import { databaseKinds } from '../../test/support/databases.js';
import { createSubscription } from '../../test/support/checkout.js';
import { get, logIn, post, signUp, startTestApp, type TestContext } from '../../test/support/harness.js';
import { rows } from '../../test/support/metering.js';
import { DEMO_APPROVER, DEMO_ROLE_STAFF, DEMO_STAFF, seedDemoData } from './seed.js';

const kinds = await databaseKinds();

describe.each(kinds)('demo data on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
    // Seeding twice changes nothing: a portal restarted on its data seeds again.
    await seedDemoData(ctx.infra);
    await seedDemoData(ctx.infra);
  });
  afterAll(() => ctx.close());

  it('holds one staff member of each role, signed in with that role’s permission map', async () => {
    const staff = await rows<{ email: string; system_role: string }>(
      ctx,
      sql`select email, system_role from users where system_role is not null order by email`,
    );
    expect(staff).toEqual(
      [DEMO_APPROVER, ...DEMO_ROLE_STAFF, DEMO_STAFF]
        .map((member) => ({ email: member.email, system_role: member.role }))
        .sort((a, b) => a.email.localeCompare(b.email)),
    );
    for (const member of DEMO_ROLE_STAFF) {
      const detail = (await get(ctx, '/api/user/detail', (await logIn(ctx, member.email)).jwt)).json();
      expect(detail.role).toBe(member.role);
      expect(detail.permissions).toEqual(permissionsFor(member.role));
    }
  });

  it('sends the approver OTPs to the other SYSTEM_ADMIN only, never to the staff of the other roles', async () => {
    const { jwt } = await signUp(ctx, 'demo.customer@example.com', 'Cora Customer');
    const subscriptionId = await createSubscription(ctx, jwt, 'Main');
    const userId = (await get(ctx, '/api/user/detail', jwt)).json().userId as string;
    const addFunds = {
      action_name: 'add_funds',
      user_id: userId,
      action_payload: {
        amount: 100,
        event_name: 'ADMIN_ADD_FUNDS',
        iso_currency_code: 'USD',
        mode: 'FREE',
        remark: 'Demo',
        subscription_id: subscriptionId,
      },
    };
    /** How many approval mails each address received. */
    const approvalMails = async () => {
      const counts: Record<string, number> = {};
      for (const mail of await ctx.services.mail.listRecent(500)) {
        if (mail.subject.startsWith('Approve:')) counts[mail.toAddress] = (counts[mail.toAddress] ?? 0) + 1;
      }
      return counts;
    };

    expect((await post(ctx, '/api/admin/action', addFunds, (await logIn(ctx, DEMO_STAFF.email)).jwt)).statusCode).toBe(200);
    expect(await approvalMails()).toEqual({ [DEMO_APPROVER.email]: 1 });

    // Billing may add funds: both SYSTEM_ADMINs approve, and still none of the other roles.
    const billing = DEMO_ROLE_STAFF.find((member) => member.role === 'SYSTEM_BILLING')!;
    expect((await post(ctx, '/api/admin/action', addFunds, (await logIn(ctx, billing.email)).jwt)).statusCode).toBe(200);
    expect(await approvalMails()).toEqual({ [DEMO_APPROVER.email]: 2, [DEMO_STAFF.email]: 1 });
  });
});
