import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personOf } from '../../../test/support/account-people.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, get, logIn, post, send, signUp, startTestApp, tokensOf, type TestContext } from '../../../test/support/harness.js';
import { insertStaff } from '../../../test/support/staff.js';

/**
 * A staff member's rights follow the role they hold now: an operator lowering or removing the role takes effect on the
 * next request, not when the access token the member holds runs out.
 */
const kinds = await databaseKinds();

describe.each(kinds)('a staff role changed during a session on %s', (kind) => {
  let ctx: TestContext;
  let customerId: string;
  const previewPath = () => `/api/admin/kumo-ea-version/${customerId}?action=ENABLE`;
  const setRole = (email: string, role: string | null) =>
    ctx.database.db.execute(sql`update users set system_role = ${role} where email = ${email}`);

  beforeAll(async () => {
    ctx = await startTestApp(kind);
    customerId = (await personOf(ctx, await signUp(ctx, `role.customer.${randomUUID().slice(0, 8)}@example.com`))).userId;
  });
  afterAll(() => ctx?.close());

  it('refuses a lowered role what only the old role could do, on the next call with the same access token', async () => {
    const email = `role.admin.${randomUUID().slice(0, 8)}@kumo.test`;
    await insertStaff(ctx, email, 'Ada Admin', 'SYSTEM_ADMIN');
    const staff = await logIn(ctx, email);
    const allowed = await send(ctx, 'POST', previewPath(), undefined, staff.jwt);
    expect(allowed.statusCode, allowed.body).toBe(200);

    // Support sees the preview-release card but may not change it (DISABLED).
    await setRole(email, 'SYSTEM_SUPPORT');
    const refused = await send(ctx, 'POST', previewPath(), undefined, staff.jwt);
    expect([refused.statusCode, errorCode(refused)], refused.body).toEqual([403, 'FORBIDDEN']);
    // What the new role may still do goes on, and the console is told the new role's map.
    expect((await get(ctx, `/api/admin/users/${customerId}`, staff.jwt)).statusCode).toBe(200);
    const detail = (await get(ctx, '/api/user/detail', staff.jwt)).json();
    expect(detail.permissions.customer_preview_release).toBe('DISABLED');
  });

  it('ends the session of a staff member whose staff role was taken away', async () => {
    const email = `role.gone.${randomUUID().slice(0, 8)}@kumo.test`;
    await insertStaff(ctx, email, 'Gus Gone', 'SYSTEM_DEVOPS');
    const staff = await logIn(ctx, email);
    expect((await get(ctx, `/api/admin/users/${customerId}`, staff.jwt)).statusCode).toBe(200);
    await setRole(email, null);
    const refused = await get(ctx, `/api/admin/users/${customerId}`, staff.jwt);
    expect([refused.statusCode, errorCode(refused)]).toEqual([401, 'TOKEN_INVALID']);
  });

  /** A staff member of `role` viewing the customer's console, with the view's tokens. */
  async function viewingStaff(role: 'SYSTEM_SUPPORT' | 'SYSTEM_ADMIN') {
    const email = `role.view.${randomUUID().slice(0, 8)}@kumo.test`;
    await insertStaff(ctx, email, 'Vic Viewer', role);
    const staff = await logIn(ctx, email);
    const started = await send(ctx, 'POST', `/api/admin/switch-user/${customerId}`, undefined, staff.jwt);
    expect(started.statusCode, started.body).toBe(200);
    const view = tokensOf(started);
    expect((await get(ctx, '/api/user/detail', view.jwt)).statusCode).toBe(200);
    return { email, view };
  }

  it.each([
    ['lowered to a role without the view', 'SYSTEM_DEVOPS'],
    ['taken away', null],
  ] as const)('ends a customer view on its next request once the staff role is %s', async (_, role) => {
    const { email, view } = await viewingStaff('SYSTEM_SUPPORT');
    await setRole(email, role);
    const refused = await get(ctx, '/api/user/detail', view.jwt);
    expect([refused.statusCode, errorCode(refused)], refused.body).toEqual([401, 'TOKEN_INVALID']);
    // Nor does a renewal bring it back: the view has ended.
    const renewed = await post(ctx, '/api/user/refresh-token', { refresh_token: view.refresh });
    expect(renewed.statusCode, renewed.body).toBe(401);
  });

  it('keeps a customer view going when the new staff role still grants it', async () => {
    const { email, view } = await viewingStaff('SYSTEM_ADMIN');
    await setRole(email, 'SYSTEM_SUPPORT');
    expect((await get(ctx, '/api/user/detail', view.jwt)).statusCode).toBe(200);
  });
});
