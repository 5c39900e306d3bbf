import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { databaseKinds } from '../../../test/support/databases.js';
import { createSubscription } from '../../../test/support/checkout.js';
import { errorCode, get, latestOtp, logIn, post, signUp, startTestApp, type TestContext } from '../../../test/support/harness.js';

const kinds = await databaseKinds();
let counter = 0;
const stamp = Date.now();
const freshEmail = (who: string, domain: string) => `four-race.${who}${++counter}.${stamp}@${domain}`;

// Two portals on one database, sharing nothing in memory: a staff member types nine wrong approval OTPs and the
// right one at once, spread over both. The wrong ones lock the requester like sign-in OTPs: only the first three may
// ever be compared (the third locks for the day), and the right one approves only if it came before the lock.
describe.each(kinds)('the four-eyes approval OTP lock across two portals on %s', (kind) => {
  let first: TestContext;
  let second: TestContext;
  let approverEmail: string;
  beforeAll(async () => {
    first = await startTestApp(kind);
    second = await startTestApp(kind, { sameDatabaseAs: first });
    approverEmail = freshEmail('approver', 'kumo.test');
    await insertStaff(approverEmail, 'SYSTEM_ADMIN');
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  /** Staff are made directly in the database, as operators do. */
  async function insertStaff(email: string, role: string): Promise<string> {
    const { rows } = await first.database.db.execute<{ id: string }>(
      sql`insert into users (email, name, system_role, created_at)
          values (${email}, 'Stan Staff', ${role}, ${first.clock.now().toISOString()}) returning id`,
    );
    return rows[0]!.id;
  }

  /** The requester's counted approval attempts, oldest first. */
  async function attempts(requesterUserId: string) {
    const { rows } = await first.database.db.execute<{ succeeded: boolean }>(
      sql`select succeeded from otp_attempts where email = ${`admin-approval:${requesterUserId}`} order by seq`,
    );
    return rows.map((row) => row.succeeded);
  }

  it('compares at most three wrong approval OTPs however they are spread, and the right one only before the lock', async () => {
    for (let round = 0; round < 4; round++) {
      const requesterEmail = freshEmail('billing', 'kumo.test');
      const requesterId = await insertStaff(requesterEmail, 'SYSTEM_BILLING');
      const requester = await logIn(first, requesterEmail);
      const customerEmail = freshEmail('customer', 'example.com');
      const customer = await signUp(first, customerEmail, 'Cora Customer');
      const subscriptionId = await createSubscription(first, customer.jwt, `Race${counter}`);
      const customerId = (await get(first, '/api/user/detail', customer.jwt)).json().userId as string;

      const asked = await post(
        first,
        '/api/admin/action',
        {
          action_name: 'add_funds',
          user_id: customerId,
          action_payload: {
            amount: 40,
            event_name: 'ADMIN_ADD_FUNDS',
            iso_currency_code: 'USD',
            mode: 'FREE',
            remark: 'Race',
            subscription_id: subscriptionId,
          },
        },
        requester.jwt,
      );
      expect(asked.statusCode, asked.body).toBe(200);
      const operationId = asked.json().operation_id as string;
      const right = await latestOtp(first, approverEmail);
      const wrong = (index: number) => String((Number(right) + 1 + index) % 1_000_000).padStart(6, '0');
      const rightAt = (round * 3) % 10;
      const guesses = Array.from({ length: 10 }, (_, index) => (index === rightAt ? right : wrong(index)));
      const answers = await Promise.all(
        guesses.map((otp, index) =>
          post(index % 2 === 0 ? first : second, '/api/admin/action/authenticate', { operation_id: operationId, otp }, requester.jwt),
        ),
      );

      const approved = answers[rightAt]!.statusCode === 200;
      // A guess that arrives once the operation is used is told so; every other answer is the OTP's verdict.
      for (const answer of answers)
        if (answer.statusCode === 409) expect([approved, errorCode(answer)]).toEqual([true, 'OPERATION_ALREADY_USED']);
        else expect([200, 422], answer.body).toContain(answer.statusCode);
      expect(answers.filter((answer) => errorCode(answer) === 'OTP_INVALID').length).toBeLessThanOrEqual(2);
      const recorded = await attempts(requesterId);
      expect(recorded.filter((succeeded) => !succeeded).length).toBeLessThanOrEqual(3);
      if (approved) expect(recorded.indexOf(true)).toBeLessThan(3);
      else expect(errorCode(answers[rightAt]!)).toBe('OTP_LOCKED');
      // The operation is used exactly when the right OTP was accepted.
      const [operation] = (
        await first.database.db.execute<{ approved_at: string | null }>(
          sql`select approved_at from admin_operations where id = ${operationId}`,
        )
      ).rows;
      expect(operation!.approved_at !== null).toBe(approved);
    }
  });
});
