import { useLocation, useNavigate } from 'react-router';
import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { PRODUCT, SIGN_UP_CREDIT_USD } from '@kumo/contract';
import { formatUsd } from '../../lib/format';

const STEPS = [
  {
    title: 'Add funds to a subscription',
    text: `Create a prepaid subscription; your first one comes with ${formatUsd(SIGN_UP_CREDIT_USD, 0)} of free credits.`,
  },
  { title: 'Deploy clusters', text: 'Launch an analytics cluster on AWS and watch it come online.' },
  { title: 'Add users and share roles', text: 'Invite your team and decide who administers what.' },
];

/** Shown once after sign-up; closing it drops the flag from history so a reload does not show it again. */
export function WelcomeDialog() {
  const location = useLocation();
  const navigate = useNavigate();
  const opened = (location.state as { sign_up?: boolean } | null)?.sign_up === true;
  const close = () => void navigate(location.pathname, { replace: true, state: null });

  return (
    <Modal opened={opened} onClose={close} title={`Welcome to ${PRODUCT.name}`} size="lg" centered radius="lg">
      <Text c="dimmed" mb="lg">
        Three steps get you from an empty account to running analytics:
      </Text>
      <Stack gap="lg">
        {STEPS.map((step, index) => (
          <Group key={step.title} wrap="nowrap" align="flex-start" gap="md">
            <ThemeIcon radius="xl" size={32} variant="light">
              <Text fw={700} fz="sm">
                {index + 1}
              </Text>
            </ThemeIcon>
            <div>
              <Text fw={600}>{step.title}</Text>
              <Text fz="sm" c="dimmed">
                {step.text}
              </Text>
            </div>
          </Group>
        ))}
      </Stack>
      <Group justify="flex-end" mt="xl">
        <Button onClick={close}>Get started</Button>
      </Group>
    </Modal>
  );
}
