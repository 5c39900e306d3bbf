import { describe, expect, it } from 'vitest';
import { documentTitle } from './document-title';

describe('documentTitle', () => {
  it.each([
    ['/login', 'Login | Kumo Cloud'],
    ['/signup', 'Signup | Kumo Cloud'],
    ['/admin/login', 'Admin - Login | Kumo Cloud'],
    ['/terms-of-use', 'Terms of Use | Kumo Cloud'],
    ['/privacy-policy', 'Privacy Policy | Kumo Cloud'],
    ['/cost-analysis', 'Cost Analysis | Kumo Cloud'],
    ['/', 'Home | Kumo Cloud'],
    ['/unauthorized-access', 'Unauthorized | Kumo Cloud'],
    ['/admin/unauthorized-access', 'Unauthorized | Kumo Cloud'],
    ['/invite', 'Invite | Kumo Cloud'],
    ['/invite/accept', 'Invite | Kumo Cloud'],
  ])('titles %s as %s', (path, title) => {
    expect(documentTitle(path)).toBe(title);
  });

  it.each([
    ['/subscriptions', 'Subscriptions | Kumo Cloud'],
    ['/subscriptions/7b0c', 'Subscriptions | Kumo Cloud'],
    ['/clusters/sub-1/dep-2', 'Clusters | Kumo Cloud'],
    ['/users/u-1', 'Users | Kumo Cloud'],
    ['/admin/customers/c-9', 'Customers | Kumo Cloud'],
  ])('titles the section page %s as %s', (path, title) => {
    expect(documentTitle(path)).toBe(title);
  });

  it("puts the active items' names in front of the section", () => {
    const names = { user: 'Grace Hopper', subscription: 'Analytics', cluster: 'Sales BI', customer: 'Ada Lovelace' };
    expect(documentTitle('/users/u-1', names)).toBe('Grace Hopper - Users | Kumo Cloud');
    expect(documentTitle('/subscriptions/s-1', names)).toBe('Analytics - Subscriptions | Kumo Cloud');
    expect(documentTitle('/clusters/s-1/d-1', names)).toBe('Sales BI - Analytics - Clusters | Kumo Cloud');
    expect(documentTitle('/admin/customers/c-1', names)).toBe('Ada Lovelace - Customers | Kumo Cloud');
    expect(documentTitle('/clusters/s-1', { subscription: 'Analytics' })).toBe('Analytics - Clusters | Kumo Cloud');
  });

  it('ignores names that do not belong to the section', () => {
    expect(documentTitle('/users', { customer: 'Ada Lovelace' })).toBe('Users | Kumo Cloud');
    expect(documentTitle('/', { user: 'Grace Hopper' })).toBe('Home | Kumo Cloud');
  });

  it('ignores a trailing slash', () => {
    expect(documentTitle('/login/')).toBe('Login | Kumo Cloud');
  });

  it('uses only the product name for any other path', () => {
    expect(documentTitle('/nowhere')).toBe('Kumo Cloud');
    expect(documentTitle('/usersettings')).toBe('Kumo Cloud');
    expect(documentTitle('/admin')).toBe('Kumo Cloud');
  });
});
