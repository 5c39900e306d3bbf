import { Link, useLocation } from 'react-router';
import { NavLink, Stack } from '@mantine/core';
import { activeSection, type SectionSet } from './sections';

export function NavRail({ sectionSet, onNavigate }: { sectionSet: SectionSet; onNavigate: () => void }) {
  const { pathname } = useLocation();
  const active = activeSection(sectionSet, pathname);

  return (
    <Stack component="nav" aria-label="Main" gap={4}>
      {sectionSet.sections.map((section) => (
        <NavLink
          key={section.path}
          component={Link}
          to={section.path}
          label={section.label}
          leftSection={<section.icon size={20} />}
          active={section === active}
          aria-current={section === active ? 'page' : undefined}
          onClick={onNavigate}
          variant="light"
          fw={500}
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        />
      ))}
    </Stack>
  );
}
