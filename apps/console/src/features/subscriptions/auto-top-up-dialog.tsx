import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Stack, Switch, Text } from '@mantine/core';
import type { z } from 'zod';
import { AUTO_TOP_UP_LIMITS, AUTO_TOP_UP_MESSAGES, autoTopUpRequestSchema, type AutoTopUp, type Subscription } from '@kumo/contract';
import { AmountField } from '../../components/amount-field';
import { DialogFormButtons, saveAndClose } from '../../components/dialog-form';
import { useSaveAutoTopUp } from './api/auto-top-up';
import { describeCard } from './saved-card';

interface AutoTopUpDialogProps {
  subscription: Subscription;
  /** The settings as they are; the dialog is open while there are some. */
  autoTopUp: AutoTopUp | null;
  onClose: () => void;
}

export function AutoTopUpDialog({ subscription, autoTopUp, onClose }: AutoTopUpDialogProps) {
  return (
    <Modal opened={!!autoTopUp} onClose={onClose} title="Automatic top-up settings" centered size="md">
      {/* Mounted only while open, so every opening starts from the settings as they are. */}
      {autoTopUp && <AutoTopUpForm subscription={subscription} autoTopUp={autoTopUp} onClose={onClose} />}
    </Modal>
  );
}

type FormInput = z.input<typeof autoTopUpRequestSchema>;
type FormValues = z.output<typeof autoTopUpRequestSchema>;
const AMOUNT_FIELDS = ['threshold_amount', 'top_up_amount', 'monthly_cap'] as const;
const FIELDS = ['enabled', ...AMOUNT_FIELDS] as const;
const dollars = (value: number) => `$${value.toLocaleString('en-US')}`;
const L = AUTO_TOP_UP_LIMITS;

function AutoTopUpForm({ subscription, autoTopUp, onClose }: { subscription: Subscription; autoTopUp: AutoTopUp; onClose: () => void }) {
  const save = useSaveAutoTopUp();
  const { control, handleSubmit, formState, setError, getValues } = useForm<FormInput, unknown, FormValues>({
    resolver: zodResolver(autoTopUpRequestSchema),
    mode: 'all',
    defaultValues: {
      enabled: autoTopUp.enabled,
      threshold_amount: autoTopUp.threshold_amount.toFixed(2),
      top_up_amount: autoTopUp.top_up_amount.toFixed(2),
      monthly_cap: autoTopUp.monthly_cap.toFixed(2),
    },
  });
  const card = autoTopUp.payment_method;
  const paused = autoTopUp.status === 'PAUSED_AFTER_FAILURE';

  const submit = (values: FormValues) => {
    // The amounts as typed: the API reads them with the same rule, to the cent.
    const typed = (field: (typeof AMOUNT_FIELDS)[number]) => String(getValues(field)).trim();
    save.mutate(
      {
        subscriptionId: subscription.subscription_id,
        settings: {
          enabled: values.enabled,
          threshold_amount: typed('threshold_amount'),
          top_up_amount: typed('top_up_amount'),
          monthly_cap: typed('monthly_cap'),
        },
      },
      saveAndClose({ successMessage: AUTO_TOP_UP_MESSAGES.saved, onClose, fields: FIELDS, setError, save }),
    );
  };

  return (
    <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          When a metering run leaves the balance of <strong>{subscription.subscription_name}</strong> under the threshold, the saved card is
          charged the top-up amount: at most once an hour, and never over the monthly cap.
        </Text>
        {/* A Controller, not register: Mantine's Switch keeps its own checked state, which would hide the form's value. */}
        <Controller
          control={control}
          name="enabled"
          render={({ field, fieldState }) => (
            <Switch
              label="Automatic top-up on"
              // The label wraps the description; without this the description would be read twice, as name and description.
              aria-label="Automatic top-up on"
              name={field.name}
              ref={field.ref}
              checked={field.value}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
              onBlur={field.onBlur}
              // Turning it on needs a card; turning it off never does.
              disabled={!card && !field.value}
              description={card ? `Charged to ${describeCard(card)}.` : AUTO_TOP_UP_MESSAGES.paymentMethodRequired}
              error={fieldState.error?.message}
            />
          )}
        />
        {paused && <Text fz="sm">Automatic top-up is paused after a failed payment; saving the settings with it on resumes it.</Text>}
        <AmountField
          control={control}
          name="threshold_amount"
          label="When the balance is under (USD)"
          hint={`From ${dollars(L.minThresholdDollars)} to ${dollars(L.maxThresholdDollars)}`}
        />
        <AmountField
          control={control}
          name="top_up_amount"
          label="Top up by (USD)"
          hint={`From ${dollars(L.minTopUpDollars)} to ${dollars(L.maxTopUpDollars)}`}
        />
        <AmountField
          control={control}
          name="monthly_cap"
          label="Monthly cap (USD)"
          hint={`All automatic top-ups of a month together, up to ${dollars(L.maxMonthlyCapDollars)}`}
        />
        <DialogFormButtons save={save} canSubmit={formState.isValid} submitLabel="Save settings" onCancel={onClose} />
      </Stack>
    </form>
  );
}
