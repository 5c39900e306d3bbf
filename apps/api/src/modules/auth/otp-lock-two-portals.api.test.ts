import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, latestOtp, post, signUp, startTestApp, type TestContext } from '../../../test/support/harness.js';

const kinds = await databaseKinds();
let counter = 0;
const freshEmail = () => `race${++counter}.${Date.now()}@example.com`;

// Two portals on one database, sharing nothing in memory: nine wrong OTPs and the right one sent at once, spread
// over both. Only the first three wrong ones may ever be compared (the third locks the e-mail for the day), and
// the right one signs in only if it came before the lock.
describe.each(kinds)('the OTP lock across two portals on %s', (kind) => {
  let first: TestContext;
  let second: TestContext;
  beforeAll(async () => {
    first = await startTestApp(kind);
    second = await startTestApp(kind, { sameDatabaseAs: first });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  async function attempts(email: string) {
    const { rows } = await first.database.db.execute<{ succeeded: boolean }>(
      sql`select succeeded from otp_attempts where email = ${email} order by seq`,
    );
    return rows.map((row) => row.succeeded);
  }

  it('compares at most three wrong OTPs however the guesses are spread, and the right one only before the lock', async () => {
    for (let round = 0; round < 4; round++) {
      const email = freshEmail();
      await signUp(first, email);
      expect((await post(first, '/api/user/login', { email_id: email, auth_provider: 'EMAIL_OTP_AUTH' })).statusCode).toBe(200);
      const right = await latestOtp(first, email);
      const wrong = (index: number) => String((Number(right) + 1 + index) % 1_000_000).padStart(6, '0');
      const rightAt = (round * 3) % 10;
      const guesses = Array.from({ length: 10 }, (_, index) => (index === rightAt ? right : wrong(index)));
      const answers = await Promise.all(
        guesses.map((otp, index) =>
          post(index % 2 === 0 ? first : second, '/api/user/authenticate', { email_id: email, otp, user_name: '' }),
        ),
      );

      for (const answer of answers) expect([200, 422]).toContain(answer.statusCode);
      expect(answers.filter((answer) => errorCode(answer) === 'OTP_INVALID').length).toBeLessThanOrEqual(2);
      const recorded = (await attempts(email)).slice(1); // the first is the sign-up's own success
      expect(recorded.filter((succeeded) => !succeeded).length).toBeLessThanOrEqual(3);
      const signedIn = answers[rightAt]!.statusCode === 200;
      if (signedIn) expect(recorded.indexOf(true)).toBeLessThan(3);
      else expect(errorCode(answers[rightAt]!)).toBe('OTP_LOCKED');
    }
  });
});
