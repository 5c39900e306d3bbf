import { useEffect, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button, Center, Group, Loader, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { TRANSACTION_STATUS_LABELS, type PaymentStatus } from '@kumo/contract';
import { IconAlertTriangle, IconCheck, IconCreditCard } from '../../components/icons';
import { formatUsd } from '../../lib/format';
import { useCancelPurchase } from './api/cancel-purchase';
import { usePaymentStatus } from './api/payment-status';
import { useSubscriptionDetails } from './api/subscription-details';
import type { PaymentReturn } from './payment-return';
import { ErrorAlert } from '../../components/error-alert';

interface Outcome {
  title: string;
  tone: 'green' | 'red' | 'yellow' | 'gray';
  message: ReactNode;
}

/** What the customer is told about the payment they come back from (statuses of spec section 4). */
export function paymentOutcome(status: PaymentStatus, subscriptionName: string | undefined): Outcome {
  const amount = formatUsd(status.amount);
  const where = subscriptionName ? ` to ${subscriptionName}` : '';
  switch (status.transaction_status) {
    case 'SUCCESSFUL':
      return { title: 'Payment successful', tone: 'green', message: `${amount} has been added${where}.` };
    case 'FAILED':
      return {
        title: 'Payment failed',
        tone: 'red',
        message: `${status.failure_message ?? 'The payment did not go through.'} No funds were added.`,
      };
    case 'CANCELLED':
      return { title: 'Payment cancelled', tone: 'gray', message: `The payment of ${amount} was cancelled. No funds were added.` };
    case 'PROCESSING':
    case 'PAYMENT_INTENT_CREATED':
      return {
        title: `Payment ${TRANSACTION_STATUS_LABELS[status.transaction_status].toLowerCase()}`,
        tone: 'yellow',
        message: `Your payment of ${amount} is not confirmed yet. The funds are added as soon as the payment provider confirms it.`,
      };
  }
}

const ICONS = { green: IconCheck, red: IconAlertTriangle, yellow: IconCreditCard, gray: IconCreditCard };

/** Confirms the checkout the browser came back from and says how it went; closing it forgets the return. */
export function PaymentResultDialog({ paymentReturn }: { paymentReturn: PaymentReturn }) {
  const location = useLocation();
  const navigate = useNavigate();
  const close = () => void navigate(location.pathname, { replace: true, state: null });
  return (
    <Modal opened onClose={close} title="Add Funds" centered size="md">
      {'sessionId' in paymentReturn ? (
        <ConfirmedPayment subscriptionId={paymentReturn.subscriptionId} sessionId={paymentReturn.sessionId} onClose={close} />
      ) : (
        <CancelledPayment purchaseId={paymentReturn.cancelledPurchaseId} subscriptionId={paymentReturn.subscriptionId} onClose={close} />
      )}
    </Modal>
  );
}

function ConfirmedPayment({ subscriptionId, sessionId, onClose }: { subscriptionId: string; sessionId: string; onClose: () => void }) {
  const status = usePaymentStatus(subscriptionId, sessionId);
  return <Result subscriptionId={subscriptionId} status={status.data} error={status.error} onClose={onClose} />;
}

function CancelledPayment({ purchaseId, subscriptionId, onClose }: { purchaseId: string; subscriptionId: string; onClose: () => void }) {
  const cancel = useCancelPurchase();
  const { mutate } = cancel;
  useEffect(() => mutate(purchaseId), [mutate, purchaseId]);
  return <Result subscriptionId={subscriptionId} status={cancel.data} error={cancel.error} onClose={onClose} />;
}

function Result({
  subscriptionId,
  status,
  error,
  onClose,
}: {
  subscriptionId: string;
  status?: PaymentStatus;
  error: unknown;
  onClose: () => void;
}) {
  const details = useSubscriptionDetails(subscriptionId);
  let body: ReactNode;
  if (error) {
    body = <ErrorAlert error={error} />;
  } else if (!status) {
    body = (
      <Center py="lg">
        <Stack align="center" gap="sm">
          <Loader size="sm" />
          <Text c="dimmed">Confirming your payment…</Text>
        </Stack>
      </Center>
    );
  } else {
    const outcome = paymentOutcome(status, details.data?.subscription_name);
    const Icon = ICONS[outcome.tone];
    body = (
      <Stack gap="sm" align="center" ta="center" py="sm">
        <ThemeIcon size={48} radius="xl" variant="light" color={outcome.tone}>
          <Icon size={26} />
        </ThemeIcon>
        <Text fw={700} fz="lg">
          {outcome.title}
        </Text>
        <Text>{outcome.message}</Text>
        {status.transaction_status === 'SUCCESSFUL' && (
          <Text fz="sm" c="dimmed">
            Receipt {status.receipt_id}
            {details.data ? ` · New balance ${formatUsd(details.data.total_amount)}` : ''}
          </Text>
        )}
      </Stack>
    );
  }
  return (
    <Stack>
      {body}
      <Group justify="flex-end">
        <Button onClick={onClose}>Close</Button>
      </Group>
    </Stack>
  );
}
