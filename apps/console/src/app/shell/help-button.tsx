import { useLocation } from 'react-router';
import { Button } from '@mantine/core';
import { IconHelp } from '../../components/icons';
import { helpUrl, useHelpLinks } from './api/help-document-links';
import { activeSection, type SectionSet } from './sections';

/** Opens the help page for the current section, or the home help page when none matches. */
export function HelpButton({ sectionSet }: { sectionSet: SectionSet }) {
  const { pathname } = useLocation();
  const links = useHelpLinks();
  const href = links.data && helpUrl(links.data, activeSection(sectionSet, pathname)?.helpKey ?? 'home');
  const common = { variant: 'subtle', color: 'gray', leftSection: <IconHelp /> } as const;
  // Until the links arrive (or if they cannot be loaded) there is nowhere to go.
  if (!href) {
    return (
      <Button {...common} disabled aria-label="Help (opens in a new tab)">
        Help
      </Button>
    );
  }
  return (
    <Button {...common} component="a" href={href} target="_blank" rel="noopener noreferrer" aria-label="Help (opens in a new tab)">
      Help
    </Button>
  );
}
