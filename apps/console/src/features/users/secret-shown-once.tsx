import type { ReactNode } from 'react';
import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';

interface SecretShownOnceProps {
  /** What the secret is, as its accessible name: 'API token', 'Signing secret'. */
  label: string;
  secret: string;
  /** Why it cannot be shown again. */
  warning: string;
  copyLabel: string;
  /** How the secret is used. */
  children: ReactNode;
  onDone: () => void;
}

/** A secret the server answers once (an API token, a webhook's signing secret): shown with a copy button and a warning. */
export function SecretShownOnce({ label, secret, warning, copyLabel, children, onDone }: SecretShownOnceProps) {
  return (
    <Stack gap="md">
      <Alert color="yellow" title="Shown this once">
        {warning}
      </Alert>
      <Text fz="sm">{children}</Text>
      <Code block aria-label={label} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
        {secret}
      </Code>
      <Group justify="flex-end" gap="sm">
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy}>
              {copied ? 'Copied' : copyLabel}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
