import { useLocation } from 'react-router';
import { Box, Breadcrumbs, Text } from '@mantine/core';
import { activeSection, type SectionSet } from './sections';

/** The section title; sub-pages will add the active item's name after it. */
export function Breadcrumb({ sectionSet }: { sectionSet: SectionSet }) {
  const { pathname } = useLocation();
  const section = activeSection(sectionSet, pathname);
  if (!section) return null;
  return (
    <Box component="nav" aria-label="Breadcrumb">
      <Breadcrumbs>
        <Text fw={600} fz="sm">
          {section.label}
        </Text>
      </Breadcrumbs>
    </Box>
  );
}
