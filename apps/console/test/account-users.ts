import type { AccountUser } from '@kumo/contract';
import { userDetail } from './users';

/** The signed-in owner (test/users.ts's default user) and two people they added. */
export const OWNER: AccountUser = {
  user_id: userDetail().userId,
  user_name: 'Ada Lovelace',
  email_id: 'ada@example.com',
  role: 'ACCOUNT_OWNER',
  subscription: [],
  added_on: '2026-01-10T09:00:00.000Z',
};

export const ADMIN: AccountUser = {
  user_id: '3c1f6a2e-8d4b-4e7a-9f10-2b3c4d5e6f71',
  user_name: 'Grace Hopper',
  email_id: 'grace@example.com',
  role: 'ACCOUNT_ADMIN',
  subscription: [],
  added_on: '2026-03-05T14:07:00.000Z',
};

export const MEMBER: AccountUser = {
  user_id: '7d2e8b4f-1a6c-4b9d-8e2f-3c4d5e6f7a82',
  user_name: 'Alan Turing',
  email_id: 'alan@example.com',
  role: 'CLUSTER_MEMBER',
  subscription: ['Analytics', 'Sandbox'],
  added_on: '2026-04-01T08:30:00.000Z',
};

export const SUBSCRIPTIONS = [
  { subscription_id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', subscription_name: 'Analytics' },
  { subscription_id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e', subscription_name: 'Sandbox' },
];
