import { Link } from 'react-router';
import { Burger, Divider, Group, UnstyledButton } from '@mantine/core';
import { isSystemRole, type UserDetail } from '@kumo/contract';
import { Logo } from '../../components/logo';
import { NoticesBell } from '../../features/notices/notices-bell';
import { Breadcrumb } from './breadcrumb';
import { HelpButton } from './help-button';
import { ProfileMenu } from './profile-menu';
import type { SectionSet } from './sections';

interface TopBarProps {
  sectionSet: SectionSet;
  user: UserDetail;
  navOpened: boolean;
  onToggleNav: () => void;
}

export function TopBar({ sectionSet, user, navOpened, onToggleNav }: TopBarProps) {
  const home = sectionSet.sections[0]?.path ?? '/';
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="md" wrap="nowrap">
        <Burger opened={navOpened} onClick={onToggleNav} size="sm" aria-label="Toggle navigation" />
        <UnstyledButton component={Link} to={home} aria-label="Kumo Cloud home">
          <Logo size={28} />
        </UnstyledButton>
        <Divider orientation="vertical" visibleFrom="sm" />
        <Group visibleFrom="sm">
          <Breadcrumb sectionSet={sectionSet} />
        </Group>
      </Group>
      <Group gap="sm" wrap="nowrap">
        {/* Notices are a customer's, per account: staff in the admin area have none. */}
        {!isSystemRole(user.role) && <NoticesBell />}
        <HelpButton sectionSet={sectionSet} />
        <ProfileMenu user={user} />
      </Group>
    </Group>
  );
}
