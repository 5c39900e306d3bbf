import { describe, expect, it } from 'vitest';
import { ADMIN_SECTIONS, CUSTOMER_SECTIONS, activeSection } from './sections';

describe('activeSection', () => {
  it('matches customer sections on the first path segment', () => {
    expect(activeSection(CUSTOMER_SECTIONS, '/')?.label).toBe('Home');
    expect(activeSection(CUSTOMER_SECTIONS, '/clusters/s1/d1')?.label).toBe('Clusters');
    expect(activeSection(CUSTOMER_SECTIONS, '/cost-analysis')?.label).toBe('Cost Analysis');
  });

  it('matches the admin menu on the second path segment', () => {
    expect(activeSection(ADMIN_SECTIONS, '/admin/customers/42')?.label).toBe('Customers');
  });

  it('finds nothing for unknown segments', () => {
    expect(activeSection(CUSTOMER_SECTIONS, '/reports')).toBeUndefined();
  });
});
