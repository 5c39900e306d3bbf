import type { ReactNode } from 'react';
import { AppShell, Box } from '@mantine/core';
import type { UserDetail } from '@kumo/contract';
import { AppFooter } from '../../components/app-footer';
import { NavRail } from './nav-rail';
import type { SectionSet } from './sections';
import { TopBar } from './top-bar';
import { USER_SWITCHED_BANNER_HEIGHT, UserSwitchedBanner } from './user-switched-banner';

const NAV_BREAKPOINT = 'sm';
const TOP_BAR_HEIGHT = 60;

interface ShellFrameProps {
  sectionSet: SectionSet;
  user: UserDetail;
  /** Whether the navigation shows, on a phone and on a wider screen. */
  nav: { mobileOpened: boolean; desktopOpened: boolean; isMobile: boolean };
  onToggleNav: () => void;
  onNavigate: () => void;
  children: ReactNode;
}

/**
 * The signed-in frame: top bar, navigation rail, the page, and the footer. The shell (shell-layout.tsx) draws it
 * with its state; the build draws it once more into each customer page's first screen (app/first-screen/render.tsx).
 */
export function ShellFrame({ sectionSet, user, nav, onToggleNav, onNavigate, children }: ShellFrameProps) {
  return (
    <AppShell
      // A customer view's banner sits under the top bar, in the header, so no page scrolls it away.
      header={{
        height: user.userSwitched
          ? { base: TOP_BAR_HEIGHT + USER_SWITCHED_BANNER_HEIGHT.base, sm: TOP_BAR_HEIGHT + USER_SWITCHED_BANNER_HEIGHT.sm }
          : TOP_BAR_HEIGHT,
      }}
      navbar={{
        width: 240,
        breakpoint: NAV_BREAKPOINT,
        collapsed: { mobile: !nav.mobileOpened, desktop: !nav.desktopOpened },
      }}
      padding="xl"
    >
      <AppShell.Header>
        <Box h={TOP_BAR_HEIGHT}>
          <TopBar
            sectionSet={sectionSet}
            user={user}
            navOpened={nav.isMobile ? nav.mobileOpened : nav.desktopOpened}
            onToggleNav={onToggleNav}
          />
        </Box>
        <UserSwitchedBanner user={user} />
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <NavRail sectionSet={sectionSet} onNavigate={onNavigate} />
      </AppShell.Navbar>
      <AppShell.Main bg="var(--kumo-color-page)" style={{ display: 'flex', flexDirection: 'column' }}>
        {/* The page fills the screen below the header, so the footer is never in sight while a page is still loading
            and pushed away once it has. */}
        <Box flex={1} maw={1400} w="100%" mx="auto" mih="calc(100dvh - var(--app-shell-header-offset, 0rem))">
          {children}
        </Box>
        <Box maw={1400} w="100%" mx="auto">
          <AppFooter />
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
