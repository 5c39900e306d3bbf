import { Card, Group, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconBook, IconExternal } from '../../components/icons';
import { GUIDE_LINKS } from '../../lib/docs-links';
import classes from './link-row.module.css';

const GUIDES = [
  { href: GUIDE_LINKS.costAnalysis, label: 'Understanding cost analysis' },
  { href: GUIDE_LINKS.addFunds, label: 'Adding funds to a subscription' },
  { href: GUIDE_LINKS.clusterSetup, label: 'Setting up a cluster' },
  { href: GUIDE_LINKS.addUsers, label: 'Adding users and sharing roles' },
];

export function DocumentationCard() {
  return (
    <Card>
      <Text fw={600} mb="sm">
        Documentation
      </Text>
      <Stack gap={4}>
        {GUIDES.map(({ href, label }) => (
          <UnstyledButton
            key={href}
            component="a"
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            className={classes.row}
            aria-label={`${label} (opens in a new tab)`}
          >
            <Group wrap="nowrap" justify="space-between">
              <Group wrap="nowrap" gap="sm">
                <ThemeIcon variant="light" color="teal" radius="md" size={36}>
                  <IconBook />
                </ThemeIcon>
                <Text fz="sm" fw={500}>
                  {label}
                </Text>
              </Group>
              <IconExternal size={16} color="var(--mantine-color-dimmed)" />
            </Group>
          </UnstyledButton>
        ))}
      </Stack>
    </Card>
  );
}
