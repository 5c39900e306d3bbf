import { PRODUCT } from '@kumo/contract';

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
};

// Sections whose pages have sub-routes; later the active item's name goes in front.
const SECTION_TITLES: [prefix: string, title: string][] = [
  ['/subscriptions', 'Subscriptions'],
  ['/clusters', 'Clusters'],
  ['/users', 'Users'],
  ['/admin/customers', 'Customers'],
];

/** The document title for a path: '<Title> | Kumo Cloud', or just 'Kumo Cloud' when the path has none. */
export function documentTitle(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const title = EXACT_TITLES[path] ?? SECTION_TITLES.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`))?.[1];
  return title ? `${title} | ${PRODUCT.titleSuffix}` : PRODUCT.titleSuffix;
}
