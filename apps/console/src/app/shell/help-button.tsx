import { useLocation } from 'react-router';
import { Button } from '@mantine/core';
import { IconHelp } from '../../components/icons';
import { HELP_LINKS } from '../../lib/docs-links';
import { activeSection, type SectionSet } from './sections';

/** Opens the help page for the current section, or the home help page when none matches. */
export function HelpButton({ sectionSet }: { sectionSet: SectionSet }) {
  const { pathname } = useLocation();
  const href = activeSection(sectionSet, pathname)?.helpUrl ?? HELP_LINKS.home;
  return (
    <Button
      component="a"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      variant="subtle"
      color="gray"
      leftSection={<IconHelp />}
      aria-label="Help (opens in a new tab)"
    >
      Help
    </Button>
  );
}
