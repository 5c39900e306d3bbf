import { Outlet } from 'react-router';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { SessionExpiredModal } from '../../features/session/session-expired-modal';
import { useSession } from '../../lib/session';
import type { FirstRead } from '../../lib/api/first-reads';
import { userDetailQuery } from '../../lib/api/user-detail';
import { latestNoticesQuery } from '../../features/notices/api/notices';
import { helpLinksQuery } from './api/help-document-links';
import type { SectionSet } from './sections';
import { ShellFrame } from './shell-frame';

/** What the shell is first shown with (app/routes.tsx): the person, the help links and, for customers, the bell. */
export const shellFirstReads = (withBell: boolean): FirstRead[] =>
  withBell ? [userDetailQuery, latestNoticesQuery, helpLinksQuery] : [userDetailQuery, helpLinksQuery];

/** The signed-in frame with its state and the page of the route (ShellFrame). Rendered behind a guard. */
export function ShellLayout({ sectionSet }: { sectionSet: SectionSet }) {
  const { user } = useSession();
  const isMobile = useMediaQuery(`(max-width: 48em)`);
  const [mobileOpened, mobile] = useDisclosure(false);
  const [desktopOpened, desktop] = useDisclosure(true);
  // The guard renders this only for a signed-in user; a sign-out elsewhere unmounts it.
  if (!user) return null;

  return (
    <>
      <ShellFrame
        sectionSet={sectionSet}
        user={user}
        nav={{ mobileOpened, desktopOpened, isMobile: !!isMobile }}
        onToggleNav={isMobile ? mobile.toggle : desktop.toggle}
        onNavigate={mobile.close}
      >
        <Outlet />
      </ShellFrame>
      <SessionExpiredModal />
    </>
  );
}
