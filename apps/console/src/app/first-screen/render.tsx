// Built for Node by scripts/first-screens.mjs, which draws each customer page's first screen into its HTML: the real
// shell and page header, rendered to markup once at build time. Never part of the console's bundle.
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { UserDetail } from '@kumo/contract';
import { ClustersHeader, CostAnalysisHeader, HomeHeader, SubscriptionsHeader, UsersHeader } from '../../components/page-headers';
import { CUSTOMER_SECTIONS } from '../shell/sections';
import { ShellFrame } from '../shell/shell-frame';
import { theme } from '../theme';

/** Stands for the person's name in the markup; the build puts first-paint.js's text in its place (FIRST_SCREEN_TEXTS). */
export const PLACEHOLDER_NAME = 'Qxq Zxz';

/** The first screens: the file each is written to (dist/first-screen/), the address it is drawn for, its header. */
export const FIRST_SCREENS: { file: string; path: string; header: ReactElement }[] = [
  { file: 'home', path: '/', header: <HomeHeader firstName={PLACEHOLDER_NAME.split(' ')[0]} /> },
  { file: 'clusters', path: '/clusters', header: <ClustersHeader /> },
  { file: 'subscriptions', path: '/subscriptions', header: <SubscriptionsHeader /> },
  { file: 'cost-analysis', path: '/cost-analysis', header: <CostAnalysisHeader /> },
  { file: 'users', path: '/users', header: <UsersHeader /> },
];

const placeholderUser: UserDetail = {
  userId: '',
  userName: PLACEHOLDER_NAME,
  emailId: '',
  ownerEmailId: null,
  authProvider: 'EMAIL_OTP_AUTH',
  role: 'ACCOUNT_OWNER',
  accounts: [],
};

/** The markup of one first screen: the shell as a phone first shows it (navigation closed), with the page's header. */
export function renderFirstScreen(path: string, header: ReactElement): string {
  return renderToString(
    // The theme's CSS variables come with the page's stylesheet (theme-variables.css), as in the console.
    <MantineProvider theme={theme} defaultColorScheme="auto" withCssVariables={false}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={[path]}>
          <ShellFrame
            sectionSet={CUSTOMER_SECTIONS}
            user={placeholderUser}
            nav={{ mobileOpened: false, desktopOpened: true, isMobile: true }}
            onToggleNav={() => undefined}
            onNavigate={() => undefined}
          >
            {header}
          </ShellFrame>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}
