import type { CustomerPage } from '@kumo/contract';
import type { AdminRepository } from './admin.repository.js';

export function createAdminService(deps: { adminRepository: AdminRepository }) {
  return {
    async listCustomers(page: number, size: number): Promise<CustomerPage> {
      const { rows, total } = await deps.adminRepository.pageCustomers(page, size);
      return { content: rows, totalPages: Math.ceil(total / size) };
    },
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
