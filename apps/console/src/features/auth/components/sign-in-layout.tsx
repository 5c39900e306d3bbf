import type { ReactNode } from 'react';
import { Box, Container, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { PRODUCT } from '@kumo/contract';
import { AppFooter } from '../../../components/app-footer';
import { IconChart, IconServer, IconUsers } from '../../../components/sign-in-icons';
import { Logo } from '../../../components/logo';
import classes from './sign-in-layout.module.css';

const HIGHLIGHTS = [
  { icon: IconServer, text: 'Deploy and operate analytics clusters in minutes.' },
  { icon: IconChart, text: 'See cost and credit consumption as it happens.' },
  { icon: IconUsers, text: 'Invite your team and share roles across subscriptions.' },
];

interface SignInLayoutProps {
  title: string;
  description: ReactNode;
  showFooter: boolean;
  children: ReactNode;
}

export function SignInLayout({ title, description, showFooter, children }: SignInLayoutProps) {
  return (
    <div className={classes.layout}>
      <Box className={classes.brand} visibleFrom="md" p={48}>
        <Stack justify="space-between" h="100%">
          <Logo inverted />
          <Stack gap="xl" maw={440}>
            <Title order={2} c="white" fz={34} lh={1.2}>
              {PRODUCT.name}
            </Title>
            <Text c="indigo.0" fz="lg">
              Managed analytics clusters on prepaid subscriptions.
            </Text>
            <Stack gap="md">
              {HIGHLIGHTS.map(({ icon: Icon, text }) => (
                <Group key={text} gap="sm" wrap="nowrap">
                  <ThemeIcon variant="white" color="indigo" radius="xl" size={34}>
                    <Icon />
                  </ThemeIcon>
                  <Text c="white">{text}</Text>
                </Group>
              ))}
            </Stack>
          </Stack>
          <Text c="indigo.1" fz="xs">
            {PRODUCT.vendor}
          </Text>
        </Stack>
      </Box>
      <Stack justify="space-between" px="md" bg="var(--kumo-color-page)">
        <Container size={440} w="100%" py={56} component="main">
          <Box hiddenFrom="md" mb="xl">
            <Logo />
          </Box>
          <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 36 }}>
            <Title order={1} fz={24} mb={6}>
              {title}
            </Title>
            <Text c="dimmed" fz="sm" mb="xl">
              {description}
            </Text>
            {children}
          </Paper>
        </Container>
        {showFooter && (
          <Container size={440} w="100%">
            <AppFooter />
          </Container>
        )}
      </Stack>
    </div>
  );
}
