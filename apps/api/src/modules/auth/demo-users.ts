import type { SystemRole } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import { createAuthRepository } from './auth.repository.js';

/** Creates a customer (the owner of a new account) and staff members, each unless the e-mail exists already. */
export async function seedDemoUsers(
  db: Database,
  clock: Clock,
  people: { customer: { email: string; name: string }; staff: { email: string; name: string; role: SystemRole }[] },
): Promise<void> {
  const repository = createAuthRepository(db);
  await db.transaction(async (tx) => {
    const now = clock.now();
    const { customer, staff } = people;
    if (!(await repository.findUserByEmail(customer.email, tx))) {
      const owner = await repository.insertUser({ email: customer.email, name: customer.name, createdAt: now }, tx);
      await repository.insertAccountWithOwner(owner.id, now, tx);
    }
    for (const member of staff) {
      if (await repository.findUserByEmail(member.email, tx)) continue;
      await repository.insertUser({ email: member.email, name: member.name, systemRole: member.role, createdAt: now }, tx);
    }
  });
}
