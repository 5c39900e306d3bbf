import { ADMIN_MESSAGES, type CustomerPage, type SwitchUserResponse } from '@kumo/contract';
import type { AuthService, IssuedTokens } from '../auth/index.js';
import type { AdminRepository } from './admin.repository.js';
import type { CustomerViews } from './customers.service.js';
import type { FourEyes } from './four-eyes.service.js';

export function createAdminService(deps: { repository: AdminRepository; fourEyes: FourEyes; customers: CustomerViews; auth: AuthService }) {
  return {
    /** Sensitive actions approved by a second person's OTP. */
    fourEyes: deps.fourEyes,
    /** One customer's data, read through the owning modules. */
    customers: deps.customers,

    async listCustomers(page: number, size: number, search?: string): Promise<CustomerPage> {
      const { rows, total } = await deps.repository.pageCustomers(page, size, search);
      return { content: rows, totalPages: Math.ceil(total / size) };
    },

    /** A read-only session in the customer's account for the staff member (userSwitched). */
    async switchUser(staffUserId: string, userId: string): Promise<{ tokens: IssuedTokens; body: SwitchUserResponse }> {
      const customer = await deps.customers.customerOf(userId);
      const { expiresAt, ...tokens } = await deps.auth.switchToCustomer(staffUserId, customer);
      return {
        tokens,
        body: { message: ADMIN_MESSAGES.userSwitched, customer_name: customer.name, expires_at: expiresAt.toISOString() },
      };
    },
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
