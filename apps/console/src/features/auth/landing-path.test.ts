import { describe, expect, it } from 'vitest';
import { landingPath } from './landing-path';

describe('landingPath', () => {
  it.each(['SYSTEM_ADMIN', 'SYSTEM_DEVOPS', 'SYSTEM_SUPPORT', 'SYSTEM_BILLING'])('sends %s to the admin customers page', (role) => {
    expect(landingPath(role, '/clusters')).toBe('/admin/customers');
  });

  it.each(['ACCOUNT_OWNER', 'ACCOUNT_ADMIN'])('sends %s home', (role) => {
    expect(landingPath(role)).toBe('/');
  });

  it('returns a customer to the page the guard sent them away from', () => {
    expect(landingPath('ACCOUNT_ADMIN', '/clusters/s1/d2')).toBe('/clusters/s1/d2');
  });

  it('never returns a customer to an admin or sign-in page', () => {
    expect(landingPath('ACCOUNT_OWNER', '/admin/customers')).toBe('/');
    expect(landingPath('ACCOUNT_OWNER', '/login')).toBe('/');
  });

  it('sends other roles to the unauthorized page', () => {
    expect(landingPath('CLUSTER_MEMBER')).toBe('/unauthorized-access');
  });
});
