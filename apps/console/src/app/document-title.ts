import { PRODUCT } from '@kumo/contract';
import type { ActiveNameKey, ActiveNames } from '../lib/active-names';

const EXACT_TITLES: Record<string, string> = {
  '/': 'Home',
  '/login': 'Login',
  '/signup': 'Signup',
  '/admin/login': 'Admin - Login',
  '/terms-of-use': 'Terms of Use',
  '/privacy-policy': 'Privacy Policy',
  '/cost-analysis': 'Cost Analysis',
  '/unauthorized-access': 'Unauthorized',
  '/admin/unauthorized-access': 'Unauthorized',
  '/invite': 'Invite',
  '/invite/accept': 'Invite',
};

// Sections whose pages have sub-routes: the names of the active items go in front, in this order.
const SECTION_TITLES: [prefix: string, title: string, names: ActiveNameKey[]][] = [
  ['/subscriptions', 'Subscriptions', ['subscription']],
  ['/clusters', 'Clusters', ['cluster', 'subscription']],
  ['/users', 'Users', ['user']],
  ['/admin/customers', 'Customers', ['customer']],
];

/**
 * The document title for a path: '<Title> | Kumo Cloud', with the active items' names in front on
 * section pages ('Ada Lovelace - Users | Kumo Cloud'), or just 'Kumo Cloud' when the path has none.
 */
export function documentTitle(pathname: string, activeNames: ActiveNames = {}): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const exact = EXACT_TITLES[path];
  if (exact) return `${exact} | ${PRODUCT.titleSuffix}`;
  const section = SECTION_TITLES.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`));
  if (!section) return PRODUCT.titleSuffix;
  const [, title, keys] = section;
  const names = keys.map((key) => activeNames[key]).filter((name): name is string => Boolean(name));
  return `${[...names, title].join(' - ')} | ${PRODUCT.titleSuffix}`;
}
