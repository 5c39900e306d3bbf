import { Link } from 'react-router';
import { Card, Group, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconArrowRight, IconChart, IconServer, IconUsers, IconWallet } from '../../components/icons';
import classes from './link-row.module.css';

const QUICK_LINKS = [
  { to: '/cost-analysis', label: 'Cost Analysis', hint: 'Costs and forecasts', icon: IconChart },
  { to: '/subscriptions', label: 'Subscriptions', hint: 'Balances and funds', icon: IconWallet },
  { to: '/clusters', label: 'Clusters', hint: 'Deploy and operate', icon: IconServer },
  { to: '/users', label: 'Users', hint: 'Invite and share roles', icon: IconUsers },
];

export function QuickLinksCard() {
  return (
    <Card>
      <Text fw={600} mb="sm">
        Quick Links
      </Text>
      <Stack gap={4}>
        {QUICK_LINKS.map(({ to, label, hint, icon: Icon }) => (
          <UnstyledButton key={to} component={Link} to={to} className={classes.row}>
            <Group wrap="nowrap" justify="space-between">
              <Group wrap="nowrap" gap="sm">
                <ThemeIcon variant="light" radius="md" size={36}>
                  <Icon />
                </ThemeIcon>
                <div>
                  <Text fz="sm" fw={500}>
                    {label}
                  </Text>
                  <Text fz="xs" c="dimmed">
                    {hint}
                  </Text>
                </div>
              </Group>
              <IconArrowRight size={16} color="var(--mantine-color-dimmed)" />
            </Group>
          </UnstyledButton>
        ))}
      </Stack>
    </Card>
  );
}
