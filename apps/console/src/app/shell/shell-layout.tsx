import { Outlet } from 'react-router';
import { AppShell, Box } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { AppFooter } from '../../components/app-footer';
import { SessionExpiredModal } from '../../features/session/session-expired-modal';
import { useSession } from '../../lib/session';
import type { FirstRead } from '../../lib/api/first-reads';
import { userDetailQuery } from '../../lib/api/user-detail';
import { latestNoticesQuery } from '../../features/notices/api/notices';
import { helpLinksQuery } from './api/help-document-links';
import { NavRail } from './nav-rail';
import type { SectionSet } from './sections';
import { TopBar } from './top-bar';
import { USER_SWITCHED_BANNER_HEIGHT, UserSwitchedBanner } from './user-switched-banner';

const NAV_BREAKPOINT = 'sm';
const TOP_BAR_HEIGHT = 60;

/** The signed-in frame: top bar, navigation rail, the page, and the footer. Rendered behind a guard. */
/** What the shell is first shown with (app/routes.tsx): the person, the help links and, for customers, the bell. */
export const shellFirstReads = (withBell: boolean): FirstRead[] =>
  withBell ? [userDetailQuery, latestNoticesQuery, helpLinksQuery] : [userDetailQuery, helpLinksQuery];

export function ShellLayout({ sectionSet }: { sectionSet: SectionSet }) {
  const { user } = useSession();
  const isMobile = useMediaQuery(`(max-width: 48em)`);
  const [mobileOpened, mobile] = useDisclosure(false);
  const [desktopOpened, desktop] = useDisclosure(true);
  // The guard renders this only for a signed-in user; a sign-out elsewhere unmounts it.
  if (!user) return null;

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
        collapsed: { mobile: !mobileOpened, desktop: !desktopOpened },
      }}
      padding="xl"
    >
      <AppShell.Header>
        <Box h={TOP_BAR_HEIGHT}>
          <TopBar
            sectionSet={sectionSet}
            user={user}
            navOpened={isMobile ? mobileOpened : desktopOpened}
            onToggleNav={isMobile ? mobile.toggle : desktop.toggle}
          />
        </Box>
        <UserSwitchedBanner user={user} />
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <NavRail sectionSet={sectionSet} onNavigate={mobile.close} />
      </AppShell.Navbar>
      <AppShell.Main bg="var(--kumo-color-page)" style={{ display: 'flex', flexDirection: 'column' }}>
        {/* The page fills the screen below the header, so the footer is never in sight while a page is still loading
            and pushed away once it has. */}
        <Box flex={1} maw={1400} w="100%" mx="auto" mih="calc(100dvh - var(--app-shell-header-offset, 0rem))">
          <Outlet />
        </Box>
        <Box maw={1400} w="100%" mx="auto">
          <AppFooter />
        </Box>
      </AppShell.Main>
      <SessionExpiredModal />
    </AppShell>
  );
}
