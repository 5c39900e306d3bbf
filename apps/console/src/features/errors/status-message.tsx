import type { ReactNode } from 'react';
import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';

interface StatusMessageProps {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  action: ReactNode;
}

/** The centred card every error page uses. */
export function StatusMessage({ icon, title, children, action }: StatusMessageProps) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 48 }} maw={560} mx="auto" mt={48} shadow="xs">
      <Stack align="center" ta="center" gap="md">
        <ThemeIcon size={56} radius="xl" variant="light" color="indigo">
          {icon}
        </ThemeIcon>
        <Title order={1} fz={26}>
          {title}
        </Title>
        <Text c="dimmed">{children}</Text>
        {action}
      </Stack>
    </Paper>
  );
}
