import type { UserDetail } from '@kumo/contract';

/** A signed-in user as GET /api/user/detail returns it. */
export function userDetail(overrides: Partial<UserDetail> = {}): UserDetail {
  return {
    userId: '0b8a4c1e-5f7d-4d5e-9c1a-2b3c4d5e6f70',
    userName: 'Ada Lovelace',
    emailId: 'ada@example.com',
    ownerEmailId: 'ada@example.com',
    authProvider: 'EMAIL_OTP_AUTH',
    role: 'ACCOUNT_OWNER',
    accounts: [
      {
        account_id: '9f1d2c3b-4a5e-4f60-8a7b-1c2d3e4f5a6b',
        role: 'ACCOUNT_OWNER',
        logged_in: true,
        account_owner_email_id: 'ada@example.com',
      },
    ],
    ...overrides,
  };
}
