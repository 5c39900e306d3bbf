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

  it('ignores a trailing slash', () => {
    expect(documentTitle('/login/')).toBe('Login | Kumo Cloud');
  });

  it('uses only the product name for any other path', () => {
    expect(documentTitle('/nowhere')).toBe('Kumo Cloud');
    expect(documentTitle('/usersettings')).toBe('Kumo Cloud');
    expect(documentTitle('/admin')).toBe('Kumo Cloud');
  });
});
