/**
 * The auth module's published read models (views made by migration 0013): who people are, which accounts exist and
 * who belongs to them. Other modules join these instead of auth's tables; writes go through `AccountRecords`.
 */
import { boolean, pgView, text, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../db/columns.js';

/** Every person, customer or staff (`system_role` set for staff). */
export const userDirectory = pgView('user_directory', {
  id: uuid('id').notNull(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  systemRole: text('system_role'),
  createdAt: at('created_at').notNull(),
}).existing();

/** Every account with its owner and the settings staff change on it. */
export const accountDirectory = pgView('account_directory', {
  id: uuid('id').notNull(),
  ownerUserId: uuid('owner_user_id').notNull(),
  createdAt: at('created_at').notNull(),
  kumoEaVersionEnabled: boolean('kumo_ea_version_enabled').notNull(),
  kmAdminAccess: boolean('km_admin_access').notNull(),
  kmUserRole: text('km_user_role').notNull(),
}).existing();

/** Who belongs to which account, in which role. */
export const accountMemberDirectory = pgView('account_member_directory', {
  accountId: uuid('account_id').notNull(),
  userId: uuid('user_id').notNull(),
  role: text('role').notNull(),
  createdAt: at('created_at').notNull(),
}).existing();
