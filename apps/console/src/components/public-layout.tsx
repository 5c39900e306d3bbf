import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Box, Container, Group, UnstyledButton } from '@mantine/core';
import { AppFooter } from './app-footer';
import { Logo } from './logo';

/** Pages outside the signed-in shell: a header with the logo, the content, the footer. */
export function PublicLayout({ children, size = 'md' }: { children: ReactNode; size?: string }) {
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }} bg="var(--kumo-color-page)">
      <Box component="header" bg="var(--mantine-color-body)" style={{ borderBottom: '1px solid var(--kumo-color-border)' }}>
        <Container size={size}>
          <Group h={64}>
            <UnstyledButton component={Link} to="/" aria-label="Kumo Cloud home">
              <Logo size={30} />
            </UnstyledButton>
          </Group>
        </Container>
      </Box>
      <Container size={size} w="100%" py="xl" flex={1} component="main">
        {children}
      </Container>
      <Container size={size} w="100%">
        <AppFooter />
      </Container>
    </Box>
  );
}
