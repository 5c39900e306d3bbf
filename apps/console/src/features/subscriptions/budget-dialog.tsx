import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Checkbox, Modal, Stack, Text, TextInput } from '@mantine/core';
import { z } from 'zod';
import {
  BUDGET_LIMITS,
  BUDGET_MESSAGES,
  budgetRequestSchema,
  budgetThresholdsSchema,
  type Budget,
  type Subscription,
} from '@kumo/contract';
import { AmountField } from '../../components/amount-field';
import { DialogFormButtons, saveAndClose } from '../../components/dialog-form';
import { useSaveBudget } from './api/budget';

interface BudgetDialogProps {
  subscription: Subscription;
  /** The budget as it is (the defaults when there is none); the dialog is open while there is one. */
  budget: Budget | null;
  onClose: () => void;
}

export function BudgetDialog({ subscription, budget, onClose }: BudgetDialogProps) {
  const editing = budget?.monthly_amount != null;
  return (
    <Modal opened={!!budget} onClose={onClose} title={editing ? 'Edit budget' : 'Set a budget'} centered size="md">
      {/* Mounted only while open, so every opening starts from the budget as it is. */}
      {budget && <BudgetForm subscription={subscription} budget={budget} onClose={onClose} />}
    </Modal>
  );
}

/** "50, 75, 90" (commas or spaces between) as numbers; what is not a number stays one the contract refuses. */
const thresholdsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);

/** The contract's budget rules, the thresholds typed as a list and checked with the contract's own messages. */
const budgetFormSchema = budgetRequestSchema.extend({
  thresholds: z.string().transform((text, ctx) => {
    const parsed = budgetThresholdsSchema.safeParse(thresholdsOf(text));
    if (parsed.success) return parsed.data;
    ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? BUDGET_MESSAGES.thresholdsCount });
    return z.NEVER;
  }),
});
type BudgetFormInput = z.input<typeof budgetFormSchema>;
type BudgetFormValues = z.output<typeof budgetFormSchema>;
const FIELDS = ['monthly_amount', 'thresholds', 'alert_on_forecast', 'stop_clusters_at_limit'] as const;

function BudgetForm({ subscription, budget, onClose }: { subscription: Subscription; budget: Budget; onClose: () => void }) {
  const save = useSaveBudget();
  const { control, register, handleSubmit, formState, setError, getValues } = useForm<BudgetFormInput, unknown, BudgetFormValues>({
    resolver: zodResolver(budgetFormSchema),
    mode: 'all',
    defaultValues: {
      monthly_amount: budget.monthly_amount === null ? '' : budget.monthly_amount.toFixed(2),
      thresholds: budget.thresholds.join(', '),
      alert_on_forecast: budget.alert_on_forecast,
      stop_clusters_at_limit: budget.stop_clusters_at_limit,
    },
  });

  const submit = (values: BudgetFormValues) => {
    save.mutate(
      {
        subscriptionId: subscription.subscription_id,
        // The amount as typed: the API reads it with the same rule, to the cent.
        budget: { ...values, monthly_amount: String(getValues('monthly_amount')).trim() },
      },
      saveAndClose({ successMessage: BUDGET_MESSAGES.budgetSaved, onClose, fields: FIELDS, setError, save }),
    );
  };

  return (
    <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          A monthly budget for <strong>{subscription.subscription_name}</strong>. The owner and the account admins are alerted by e-mail and
          in the portal as the month&apos;s spend reaches each threshold.
        </Text>
        <AmountField
          control={control}
          name="monthly_amount"
          label="Monthly budget (USD)"
          hint={`From $${BUDGET_LIMITS.minDollars} to $${BUDGET_LIMITS.maxDollars.toLocaleString('en-US')}`}
        />
        <TextInput
          label="Alert thresholds (%)"
          required
          autoComplete="off"
          {...register('thresholds')}
          description={`Percentages of the budget, separated by commas, e.g. ${BUDGET_LIMITS.defaultThresholds.join(', ')}`}
          error={formState.errors.thresholds?.message}
          inputWrapperOrder={['label', 'input', 'error', 'description']}
        />
        <Checkbox
          label="Alert on the forecast too"
          description="Also alert when the month's forecast reaches a threshold."
          {...register('alert_on_forecast')}
          error={formState.errors.alert_on_forecast?.message}
        />
        <Checkbox
          label="Stop this subscription's clusters when the budget is used up"
          description="Their data is kept and storage is still charged; they can start again when the budget is raised or the month ends."
          {...register('stop_clusters_at_limit')}
          error={formState.errors.stop_clusters_at_limit?.message}
        />
        <DialogFormButtons save={save} canSubmit={formState.isValid} submitLabel="Save budget" onCancel={onClose} />
      </Stack>
    </form>
  );
}
