import type { SystemRole } from '@kumo/contract';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import { seedDemoUsers } from '../modules/auth/index.js';

export const DEMO_CUSTOMER = { email: 'owner@demo.kumo.cloud', name: 'Dana Demo' };
export const DEMO_STAFF = { email: 'staff@kumo.cloud', name: 'Sam Staff', role: 'SYSTEM_ADMIN' as SystemRole };
/** A second SYSTEM_ADMIN, so a sensitive action asked by one can be approved by the other (four eyes). */
export const DEMO_APPROVER = { email: 'approver@kumo.cloud', name: 'Alex Approver', role: 'SYSTEM_ADMIN' as SystemRole };

/** Creates the demo customer (an account owner), a staff member and an approver, once. */
export async function seedDemoData(db: Database, clock: Clock): Promise<void> {
  await seedDemoUsers(db, clock, { customer: DEMO_CUSTOMER, staff: DEMO_STAFF });
  await seedDemoUsers(db, clock, { customer: DEMO_CUSTOMER, staff: DEMO_APPROVER });
}
