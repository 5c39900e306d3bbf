import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, get, signUp, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { CHECK_USER_LIMIT_PER_HOUR } from './users.routes.js';

/** The invite dialog's name look-up: it fills in a registered customer's name, and is no directory of people or staff. */
const kinds = await databaseKinds();

describe.each(kinds)('looking up a name to invite (%s)', (kind) => {
  let ctx: TestContext;
  const stamp = Date.now();
  const staffEmail = `lookup.staff.${stamp}@kumo.test`;
  const customerEmail = `lookup.customer.${stamp}@example.com`;
  const lookUp = (email: string, jwt: string) => get(ctx, `/api/user/check-user?email_id=${encodeURIComponent(email)}`, jwt);

  beforeAll(async () => {
    ctx = await startTestApp(kind);
    await ctx.database.db.execute(
      sql`insert into users (email, name, system_role, created_at) values (${staffEmail}, 'Sam Staff', 'SYSTEM_ADMIN', ${ctx.clock.now().toISOString()})`,
    );
    await signUp(ctx, customerEmail, 'Cara Customer');
  });
  afterAll(() => ctx.close());

  it('names a registered customer, and answers for a staff member exactly as for an unknown e-mail', async () => {
    const { jwt } = await signUp(ctx, `lookup.owner1.${stamp}@example.com`);
    expect((await lookUp(customerEmail, jwt)).json()).toEqual({ data: 'Cara Customer' });
    const staff = await lookUp(staffEmail, jwt);
    const unknown = await lookUp(`lookup.nobody.${stamp}@example.com`, jwt);
    expect(staff.statusCode).toBe(404);
    // The same answer but for each call's own request id.
    const { request_id: staffRequest, ...staffDetails } = staff.json().errorDetails;
    const { request_id: unknownRequest, ...unknownDetails } = unknown.json().errorDetails;
    expect(staffDetails).toEqual(unknownDetails);
    expect(staffRequest).not.toBe(unknownRequest);
    expect(staff.json()).toEqual({
      errorDetails: { error_code: 'USER_NOT_FOUND', error_message: MESSAGES.userNotRegistered, request_id: expect.any(String) },
    });
    expect(staff.body).not.toContain('Sam Staff');
  });

  it('allows each caller 30 look-ups an hour, counted per user and not per address', async () => {
    const first = await signUp(ctx, `lookup.owner2.${stamp}@example.com`);
    const second = await signUp(ctx, `lookup.owner3.${stamp}@example.com`);
    for (let i = 0; i < CHECK_USER_LIMIT_PER_HOUR; i++) {
      const email = i % 2 ? customerEmail : `lookup.probe${i}.${stamp}@example.com`;
      expect((await lookUp(email, first.jwt)).statusCode).not.toBe(429);
    }
    const refused = await lookUp(customerEmail, first.jwt);
    expect(refused.statusCode).toBe(429);
    expect(errorCode(refused)).toBe('RATE_LIMITED');
    expect(refused.json().errorDetails.error_message).toBe(MESSAGES.rateLimited);
    // Another caller from the same address still has their own look-ups.
    expect((await lookUp(customerEmail, second.jwt)).json()).toEqual({ data: 'Cara Customer' });
  });
});
