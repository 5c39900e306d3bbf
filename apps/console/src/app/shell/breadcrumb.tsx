import { Link, useLocation } from 'react-router';
import { Anchor, Box, Breadcrumbs, Text } from '@mantine/core';
import { useActiveNames } from '../../lib/active-names';
import { activeSection, type SectionSet } from './sections';

/** The section title, followed by the names of the items the page has selected (spec section 2, Shell). */
export function Breadcrumb({ sectionSet }: { sectionSet: SectionSet }) {
  const { pathname } = useLocation();
  const activeNames = useActiveNames();
  const section = activeSection(sectionSet, pathname);
  if (!section) return null;
  const names = (section.trail ?? []).map((key) => activeNames[key]).filter((name): name is string => Boolean(name));
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
        {names.map((name, index) => (
          <Text
            key={index}
            fw={index === names.length - 1 ? 600 : 400}
            fz="sm"
            maw={260}
            truncate="end"
            aria-current={index === names.length - 1 ? 'page' : undefined}
          >
            {name}
          </Text>
        ))}
      </Breadcrumbs>
    </Box>
  );
}
