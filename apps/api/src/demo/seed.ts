import type { SystemRole } from '@kumo/contract';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import { seedDemoUsers } from '../modules/auth/index.js';

export const DEMO_CUSTOMER = { email: 'owner@demo.kumo.cloud', name: 'Dana Demo' };
export const DEMO_STAFF = { email: 'staff@kumo.cloud', name: 'Sam Staff', role: 'SYSTEM_ADMIN' as SystemRole };
/** A second SYSTEM_ADMIN, so a sensitive action asked by one can be approved by the other (four eyes). */
export const DEMO_APPROVER = { email: 'approver@kumo.cloud', name: 'Alex Approver', role: 'SYSTEM_ADMIN' as SystemRole };
/**
 * One staff member of each other role, to see what each may do (docs/permissions.md). None is a SYSTEM_ADMIN,
 * so none approves sensitive actions unless APPROVER_EMAILS names them.
 */
export const DEMO_ROLE_STAFF = [
  { email: 'devops@kumo.cloud', name: 'Dev Ops', role: 'SYSTEM_DEVOPS' as SystemRole },
  { email: 'billing@kumo.cloud', name: 'Bill Billing', role: 'SYSTEM_BILLING' as SystemRole },
  { email: 'support@kumo.cloud', name: 'Sue Support', role: 'SYSTEM_SUPPORT' as SystemRole },
];

/** Creates the demo customer (an account owner), the staff member, the approver and a staff member of each other role, once. */
export async function seedDemoData(db: Database, clock: Clock): Promise<void> {
  await seedDemoUsers(db, clock, { customer: DEMO_CUSTOMER, staff: [DEMO_STAFF, DEMO_APPROVER, ...DEMO_ROLE_STAFF] });
}
