import type { ComponentType } from 'react';
import { IconBuilding, IconChart, IconHome, IconServer, IconUsers, IconWallet } from '../../components/icons';
import { HELP_LINKS } from '../../lib/docs-links';

export interface Section {
  label: string;
  path: string;
  /** The path segment that identifies the section ('' for home). */
  segment: string;
  icon: ComponentType<{ size?: number }>;
  helpUrl: string;
}

export interface SectionSet {
  sections: Section[];
  /** Which path segment selects the section: the first for customers, the second (after /admin) for staff. */
  segmentIndex: number;
}

export const CUSTOMER_SECTIONS: SectionSet = {
  segmentIndex: 1,
  sections: [
    { label: 'Home', path: '/', segment: '', icon: IconHome, helpUrl: HELP_LINKS.home },
    { label: 'Cost Analysis', path: '/cost-analysis', segment: 'cost-analysis', icon: IconChart, helpUrl: HELP_LINKS.costAnalysis },
    { label: 'Subscriptions', path: '/subscriptions', segment: 'subscriptions', icon: IconWallet, helpUrl: HELP_LINKS.subscriptions },
    { label: 'Clusters', path: '/clusters', segment: 'clusters', icon: IconServer, helpUrl: HELP_LINKS.clusters },
    { label: 'Users', path: '/users', segment: 'users', icon: IconUsers, helpUrl: HELP_LINKS.users },
  ],
};

export const ADMIN_SECTIONS: SectionSet = {
  segmentIndex: 2,
  sections: [{ label: 'Customers', path: '/admin/customers', segment: 'customers', icon: IconBuilding, helpUrl: HELP_LINKS.customers }],
};

export function activeSection({ sections, segmentIndex }: SectionSet, pathname: string): Section | undefined {
  const segment = pathname.split('/')[segmentIndex] ?? '';
  return sections.find((section) => section.segment === segment);
}
