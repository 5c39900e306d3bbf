import type { CustomerPage } from '@kumo/contract';
import type { AdminRepository } from './admin.repository.js';
import type { CustomerViews } from './customers.service.js';
import type { FourEyes } from './four-eyes.service.js';

export function createAdminService(deps: { adminRepository: AdminRepository; fourEyes: FourEyes; customers: CustomerViews }) {
  return {
    /** Sensitive actions approved by a second person's OTP. */
    fourEyes: deps.fourEyes,
    /** One customer's data, read through the owning modules. */
    customers: deps.customers,

    async listCustomers(page: number, size: number): Promise<CustomerPage> {
      const { rows, total } = await deps.adminRepository.pageCustomers(page, size);
      return { content: rows, totalPages: Math.ceil(total / size) };
    },
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
