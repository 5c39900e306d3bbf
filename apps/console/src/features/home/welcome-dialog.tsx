import { useLocation, useNavigate } from 'react-router';
import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { PRODUCT, SIGN_UP_CREDIT_USD } from '@kumo/contract';
import { formatUsd } from '../../lib/format';

const deploy = { title: 'Deploy clusters', text: 'Launch an analytics cluster on AWS and watch it come online.' };
const users = { title: 'Add users and share roles', text: 'Invite your team and decide who administers what.' };

/** A new customer's account is empty: the first subscription comes with the sign-up credits. */
const NEW_CUSTOMER = {
  intro: 'Three steps get you from an empty account to running analytics:',
  steps: [
    {
      title: 'Add funds to a subscription',
      text: `Create a prepaid subscription; your first one comes with ${formatUsd(SIGN_UP_CREDIT_USD, 0)} of free credits.`,
    },
    deploy,
    users,
  ],
};

/** A person who joined by invitation works in an account someone else set up: the sign-up credits are not theirs. */
const INVITED = {
  intro: 'You have joined an account that is already set up. Three places to start:',
  steps: [
    { title: 'Check the subscriptions', text: 'See the account’s prepaid subscriptions, their balances and how long they last.' },
    deploy,
    users,
  ],
};

/**
 * Shown once after sign-up or an accepted invitation; closing it drops the flag from history so a reload does not
 * show it again.
 */
export function WelcomeDialog() {
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as { sign_up?: boolean; invited?: boolean } | null;
  const opened = state?.sign_up === true;
  const { intro, steps } = state?.invited === true ? INVITED : NEW_CUSTOMER;
  const close = () => void navigate(location.pathname, { replace: true, state: null });

  return (
    <Modal opened={opened} onClose={close} title={`Welcome to ${PRODUCT.name}`} size="lg" centered radius="lg">
      <Text c="dimmed" mb="lg">
        {intro}
      </Text>
      <Stack gap="lg">
        {steps.map((step, index) => (
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
