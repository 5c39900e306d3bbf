import type { SystemRole } from '@kumo/contract';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import { createAuthRepository } from '../modules/auth/auth.repository.js';

export const DEMO_CUSTOMER = { email: 'owner@demo.kumo.cloud', name: 'Dana Demo' };
export const DEMO_STAFF = { email: 'staff@kumo.cloud', name: 'Sam Staff', role: 'SYSTEM_ADMIN' as SystemRole };

/** Creates the demo customer (an account owner) and a staff member, once. */
export async function seedDemoData(db: Database, clock: Clock): Promise<void> {
  const repo = createAuthRepository(db);
  await db.transaction(async (tx) => {
    const now = clock.now();
    if (!(await repo.findUserByEmail(DEMO_CUSTOMER.email, tx))) {
      const owner = await repo.insertUser({ email: DEMO_CUSTOMER.email, name: DEMO_CUSTOMER.name, createdAt: now }, tx);
      await repo.insertAccountWithOwner(owner.id, now, tx);
    }
    if (!(await repo.findUserByEmail(DEMO_STAFF.email, tx))) {
      await repo.insertUser({ email: DEMO_STAFF.email, name: DEMO_STAFF.name, systemRole: DEMO_STAFF.role, createdAt: now }, tx);
    }
  });
}
