import type { SystemRole } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import { createAuthRepository } from './auth.repository.js';

/** Who the demo people are once they exist: the customer's user and account, and each staff member's user id by e-mail. */
export interface DemoPeople {
  customer: { userId: string; accountId: string };
  staffIds: Map<string, string>;
}

/** Creates a customer (the owner of a new account) and staff members, each unless the e-mail exists already. */
export async function seedDemoUsers(
  db: Database,
  clock: Clock,
  people: { customer: { email: string; name: string }; staff: { email: string; name: string; role: SystemRole }[] },
): Promise<DemoPeople> {
  const repository = createAuthRepository(db);
  return db.transaction(async (tx) => {
    const now = clock.now();
    const { customer, staff } = people;
    let owner = await repository.findUserByEmail(customer.email, tx);
    let accountId = owner && (await repository.listMemberships(owner.id, tx)).find((m) => m.role === 'ACCOUNT_OWNER')?.accountId;
    if (!owner) owner = await repository.insertUser({ email: customer.email, name: customer.name, createdAt: now }, tx);
    accountId ??= await repository.insertAccountWithOwner(owner.id, now, tx);
    const staffIds = new Map<string, string>();
    for (const member of staff) {
      const found =
        (await repository.findUserByEmail(member.email, tx)) ??
        (await repository.insertUser({ email: member.email, name: member.name, systemRole: member.role, createdAt: now }, tx));
      staffIds.set(member.email, found.id);
    }
    return { customer: { userId: owner.id, accountId }, staffIds };
  });
}
