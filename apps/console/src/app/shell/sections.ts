import type { ComponentType } from 'react';
import { IconBuilding, IconChart, IconHome, IconKey, IconServer, IconUsers, IconWallet } from '../../components/icons';
import type { ActiveNameKey } from '../../lib/active-names';

/** The keys of the help-links call's `links` map (GET /api/saas-common/help-document-links). */
export type HelpLinkKey = 'home' | 'cost_analysis' | 'subscriptions' | 'clusters' | 'users' | 'admin_customers';

export interface Section {
  label: string;
  path: string;
  /** The path segment that identifies the section ('' for home). */
  segment: string;
  icon: ComponentType<{ size?: number }>;
  helpKey: HelpLinkKey;
  /** Names of the section's active items, shown after the section title in the breadcrumb. */
  trail?: ActiveNameKey[];
}

export interface SectionSet {
  sections: Section[];
  /** Which path segment selects the section: the first for customers, the second (after /admin) for staff. */
  segmentIndex: number;
}

export const CUSTOMER_SECTIONS: SectionSet = {
  segmentIndex: 1,
  sections: [
    { label: 'Home', path: '/', segment: '', icon: IconHome, helpKey: 'home' },
    { label: 'Cost Analysis', path: '/cost-analysis', segment: 'cost-analysis', icon: IconChart, helpKey: 'cost_analysis' },
    {
      label: 'Subscriptions',
      path: '/subscriptions',
      segment: 'subscriptions',
      icon: IconWallet,
      helpKey: 'subscriptions',
      trail: ['subscription'],
    },
    {
      label: 'Clusters',
      path: '/clusters',
      segment: 'clusters',
      icon: IconServer,
      helpKey: 'clusters',
      trail: ['subscription', 'cluster'],
    },
    { label: 'Users', path: '/users', segment: 'users', icon: IconUsers, helpKey: 'users', trail: ['user'] },
  ],
};

export const ADMIN_SECTIONS: SectionSet = {
  segmentIndex: 2,
  sections: [
    {
      label: 'Customers',
      path: '/admin/customers',
      segment: 'customers',
      icon: IconBuilding,
      helpKey: 'admin_customers',
      trail: ['customer'],
    },
    { label: 'Approvals', path: '/admin/approvals', segment: 'approvals', icon: IconKey, helpKey: 'admin_customers' },
  ],
};

export function activeSection({ sections, segmentIndex }: SectionSet, pathname: string): Section | undefined {
  const segment = pathname.split('/')[segmentIndex] ?? '';
  return sections.find((section) => section.segment === segment);
}
