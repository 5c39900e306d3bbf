import { Link, useLocation } from 'react-router';
import { Anchor, Box, Breadcrumbs, Text } from '@mantine/core';
import { useActiveLinks, useActiveNames } from '../../lib/active-names';
import { activeSection, type SectionSet } from './sections';

/** The section title, followed by the names of the items the page has selected (spec section 2, Shell). */
export function Breadcrumb({ sectionSet }: { sectionSet: SectionSet }) {
  const { pathname } = useLocation();
  const activeNames = useActiveNames();
  const activeLinks = useActiveLinks();
  const section = activeSection(sectionSet, pathname);
  if (!section) return null;
  const trail = (section.trail ?? []).filter((key) => Boolean(activeNames[key]));
  const names = trail.map((key) => activeNames[key]!);
  return (
    <Box component="nav" aria-label="Breadcrumb">
      <Breadcrumbs separatorMargin={6}>
        {names.length > 0 ? (
          <Anchor component={Link} to={section.path} fz="sm" c="dimmed">
            {section.label}
          </Anchor>
        ) : (
          <Text fw={600} fz="sm" aria-current="page">
            {section.label}
          </Text>
        )}
        {names.map((name, index) => {
          const last = index === names.length - 1;
          const href = last ? undefined : activeLinks[trail[index]!];
          return href ? (
            <Anchor key={index} component={Link} to={href} fz="sm" c="dimmed" maw={260} truncate="end">
              {name}
            </Anchor>
          ) : (
            <Text key={index} fw={last ? 600 : 400} fz="sm" maw={260} truncate="end" aria-current={last ? 'page' : undefined}>
              {name}
            </Text>
          );
        })}
      </Breadcrumbs>
    </Box>
  );
}
