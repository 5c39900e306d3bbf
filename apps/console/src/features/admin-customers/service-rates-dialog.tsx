import { useRef, useState } from 'react';
import { Controller, useForm, useWatch, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Button, Group, Modal, ScrollArea, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import {
  ADMIN_LIMITS,
  ADMIN_MESSAGES,
  FREE_UNIT_DIMENSIONS,
  METERING_DIMENSION_LABELS,
  freeUnitsError,
  rateError,
  type FreeUnitDimension,
  type MeteringDimension,
  type RateCard,
} from '@kumo/contract';
import { ApiError } from '../../lib/api-error';
import { FourEyesModal, type FourEyesForm } from './four-eyes-modal';
import { ErrorAlert } from '../../components/error-alert';
import { MoneyInput, isDigitsAndPoint } from '../../components/money-input';
import { todayUtc } from '../../lib/dates';

interface ServiceRatesDialogProps {
  userId: string;
  /** The card in force; open while there is one. */
  card: RateCard | null;
  onClose: () => void;
}

export function ServiceRatesDialog({ userId, card, onClose }: ServiceRatesDialogProps) {
  if (!card) return <Modal opened={false} onClose={onClose} />;
  return (
    <FourEyesModal opened title="Change Service Rates" userId={userId} successMessage={ADMIN_MESSAGES.ratesChanged} onClose={onClose}>
      {(form) => <RatesForm form={form} userId={userId} card={card} onCancel={onClose} />}
    </FourEyesModal>
  );
}

/** How far digits and a point may run in a rate field: 2 integer digits, 4 decimals (spec section 5). */
const RATE_TYPING = /^\d{0,2}(\.\d{0,4})?$/;
const FREE_UNITS_TYPING = /^\d{0,6}(\.\d{0,4})?$/;
const isFreeUnitDimension = (d: string): d is FreeUnitDimension => (FREE_UNIT_DIMENSIONS as readonly string[]).includes(d);

/**
 * The server's per-field errors: `service_rate_errors` and `free_unit_errors` keyed by dimension,
 * sent in field_errors as `service_rate_errors.DIMENSION` / `free_unit_errors.DIMENSION` (or the bare
 * dimension for a rate).
 */
export function serverRateErrors(error: unknown): ServerErrors {
  const rates: Record<string, string> = {};
  const freeUnits: Record<string, string> = {};
  if (!(error instanceof ApiError)) return { rates, freeUnits };
  const effectiveDate = error.fieldErrors.effective_date;
  for (const [key, message] of Object.entries(error.fieldErrors)) {
    const match = /^(service_rate_errors|free_unit_errors|rate|freeUnits)?[.[]?([A-Z_]+)\]?$/.exec(key);
    if (!match) continue;
    const [, group, dimension] = match;
    if (group === 'free_unit_errors' || group === 'freeUnits') freeUnits[dimension!] = message;
    else rates[dimension!] = message;
  }
  return { rates, freeUnits, effectiveDate };
}

type ServerErrors = { rates: Record<string, string>; freeUnits: Record<string, string>; effectiveDate?: string };

/** The last day a change may be dated: the API's limit, counted in UTC days as the API counts them. */
const lastEffectiveDay = () =>
  new Date(Date.parse(`${todayUtc()}T00:00:00Z`) + ADMIN_LIMITS.rateEffectiveMaxDaysAhead * 86_400_000).toISOString().slice(0, 10);

/** Today (UTC, as the rates take effect at midnight UTC) up to a year ahead; the API's rule and message. */
const effectiveDateSchema = z
  .string()
  .refine((day) => day === '' || (/^\d{4}-\d{2}-\d{2}$/.test(day) && day >= todayUtc() && day <= lastEffectiveDay()), {
    message: ADMIN_MESSAGES.effectiveDateInvalid,
  });

/** A typed value checked by one of the contract's rate rules (the API applies the same). */
const checkedBy = (rule: (value: string) => string | undefined) =>
  z.string().superRefine((value, ctx) => {
    const message = rule(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

/** The card's rates and the free units, each by dimension, and the day they take effect. */
function ratesFormSchema(dimensions: MeteringDimension[]) {
  return z.object({
    rates: z.object(Object.fromEntries(dimensions.map((d) => [d, checkedBy(rateError)]))),
    freeUnits: z.object(Object.fromEntries(FREE_UNIT_DIMENSIONS.map((d) => [d, checkedBy(freeUnitsError)]))),
    effective_date: effectiveDateSchema,
  });
}
type RatesValues = z.output<ReturnType<typeof ratesFormSchema>>;

function RatesForm({ form, userId, card, onCancel }: { form: FourEyesForm; userId: string; card: RateCard; onCancel: () => void }) {
  const dimensions = card.rates.map((r) => r.dimension);
  const [schema] = useState(() => ratesFormSchema(dimensions));
  const [initial] = useState<RatesValues>(() => ({
    rates: Object.fromEntries(card.rates.map((r) => [r.dimension, String(r.rate)])),
    freeUnits: Object.fromEntries(FREE_UNIT_DIMENSIONS.map((d) => [d, String(card.free_units[d] ?? 0)])),
    effective_date: todayUtc(),
  }));
  const { control, handleSubmit } = useForm<RatesValues>({
    resolver: zodResolver(schema),
    // A message shows once its field was left or the form submitted, then follows every keystroke.
    mode: 'onTouched',
    shouldFocusError: false,
    defaultValues: initial,
  });
  // The server's refusals, per field, until that field is typed in again.
  const [serverErrors, setServerErrors] = useState<ServerErrors>({ rates: {}, freeUnits: {} });
  const fieldsRef = useRef<HTMLDivElement>(null);

  const values = useWatch({ control }) as RatesValues;
  const hasError = !schema.safeParse(values).success;
  const changed =
    dimensions.some((d) => Number(values.rates[d]) !== Number(initial.rates[d])) ||
    FREE_UNIT_DIMENSIONS.some((d) => Number(values.freeUnits[d]) !== Number(initial.freeUnits[d]));

  const submit = ({ rates, freeUnits, effective_date }: RatesValues) => {
    if (!changed) return;
    form
      .ask({
        action_name: 'change_service_rate',
        user_id: userId,
        action_payload: {
          user_id: userId,
          effective_date: effective_date || undefined,
          updated_service_rates: dimensions.map((dimension) => ({
            dimension,
            rate: rates[dimension]!,
            ...(isFreeUnitDimension(dimension) ? { freeUnits: freeUnits[dimension] } : {}),
          })),
        },
      })
      .catch((error: unknown) => {
        setServerErrors(serverRateErrors(error));
        // The first field the server refused is scrolled into view and focused.
        requestAnimationFrame(() => {
          const first = fieldsRef.current?.querySelector<HTMLInputElement>('input[aria-invalid="true"]');
          first?.scrollIntoView({ block: 'center' });
          first?.focus();
        });
      });
  };

  const forget = (group: 'rates' | 'freeUnits', dimension: string) =>
    setServerErrors((all) => ({ ...all, [group]: Object.fromEntries(Object.entries(all[group]).filter(([d]) => d !== dimension)) }));
  const generalError =
    form.error && Object.keys(serverErrors.rates).length + Object.keys(serverErrors.freeUnits).length === 0 && !serverErrors.effectiveDate;
  // A field that refused a keystroke says so, and the form is not sent, until that field is corrected.
  const [refused, setRefused] = useState<Record<string, boolean>>({});
  const refusal = (name: string) => ({
    refused: !!refused[name],
    onRefusal: (on: boolean) => setRefused((all) => (all[name] === on ? all : { ...all, [name]: on })),
  });
  const anyRefused = Object.values(refused).some(Boolean);

  return (
    <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
      <Stack gap="md">
        <ScrollArea.Autosize mah="55dvh" type="auto">
          <Stack gap="sm" ref={fieldsRef}>
            <Table withRowBorders={false} verticalSpacing={4}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Service</Table.Th>
                  <Table.Th>Rate (USD)</Table.Th>
                  <Table.Th>Unit</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {card.rates.map((row) => (
                  <Table.Tr key={row.dimension}>
                    <Table.Td>
                      <Text fz="sm" id={`rate-label-${row.dimension}`}>
                        {METERING_DIMENSION_LABELS[row.dimension]}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <NumberField
                        control={control}
                        name={`rates.${row.dimension}`}
                        typing={RATE_TYPING}
                        rule={rateError}
                        refusedMessage={ADMIN_MESSAGES.rateFormat}
                        serverError={serverErrors.rates[row.dimension]}
                        onTyped={() => forget('rates', row.dimension)}
                        {...refusal(`rates.${row.dimension}`)}
                        aria-labelledby={`rate-label-${row.dimension}`}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Text fz="xs" c="dimmed">
                        {row.unit}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {FREE_UNIT_DIMENSIONS.map((dimension) => (
                <NumberField
                  key={dimension}
                  control={control}
                  name={`freeUnits.${dimension}`}
                  typing={FREE_UNITS_TYPING}
                  rule={freeUnitsError}
                  refusedMessage={ADMIN_MESSAGES.freeUnitsFormat}
                  serverError={serverErrors.freeUnits[dimension]}
                  onTyped={() => forget('freeUnits', dimension)}
                  {...refusal(`freeUnits.${dimension}`)}
                  label={`Free ${METERING_DIMENSION_LABELS[dimension]} units a month`}
                />
              ))}
            </SimpleGrid>
            <Controller
              control={control}
              name="effective_date"
              render={({ field, fieldState }) => (
                <TextInput
                  type="date"
                  label="Effective from"
                  description="The new rates apply from midnight UTC of this day; the owner is told by e-mail."
                  min={todayUtc()}
                  max={lastEffectiveDay()}
                  {...field}
                  onChange={(event) => {
                    setServerErrors((all) => ({ ...all, effectiveDate: undefined }));
                    field.onChange(event);
                  }}
                  error={serverErrors.effectiveDate ?? fieldState.error?.message}
                />
              )}
            />
          </Stack>
        </ScrollArea.Autosize>
        {generalError ? <ErrorAlert error={form.error} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={form.pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={!changed || hasError || anyRefused} loading={form.pending}>
            Change
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface NumberFieldProps {
  control: Control<RatesValues>;
  name: `rates.${string}` | `freeUnits.${string}`;
  /** How far digits and a point may run; a keystroke past it is refused. */
  typing: RegExp;
  /** The contract's rule for the field, said at once for a sign, an exponent or a letter. */
  rule: (value: string) => string | undefined;
  /** Why a keystroke was refused. */
  refusedMessage: string;
  serverError: string | undefined;
  onTyped: () => void;
  /** A keystroke was refused: said under the field until a character is deleted or the field is emptied. */
  refused: boolean;
  onRefusal: (refused: boolean) => void;
  label?: string;
  'aria-labelledby'?: string;
}

/**
 * A rate or free-units field: digits or a point past its shape are refused (spec section 5) and the field says so; while
 * it says so it takes no more characters, so "123.5" stays "12" with the reason shown instead of quietly becoming "12.5".
 * Deleting a character (or emptying the field) lifts it. A sign, an exponent or a letter stays in the field with the
 * rule's message at once, so "-1" never becomes "1". The server's message wins until typed over.
 */
function NumberField({
  control,
  name,
  typing,
  rule,
  refusedMessage,
  serverError,
  onTyped,
  refused,
  onRefusal,
  ...labelling
}: NumberFieldProps) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const value = String(field.value ?? '');
        // Checked on blur otherwise (the form's mode); a foreign character is wrong whatever follows it.
        const foreign = isDigitsAndPoint(value) ? undefined : rule(value);
        return (
          <MoneyInput
            {...labelling}
            name={field.name}
            ref={field.ref}
            value={value}
            onValueChange={(next) => {
              const growing = next.length > value.length;
              if (isDigitsAndPoint(next) && (!typing.test(next) || (refused && growing))) {
                onRefusal(true);
                return;
              }
              if (!growing) onRefusal(false);
              field.onChange(next);
              onTyped();
            }}
            onBlur={field.onBlur}
            error={serverError ?? (refused ? refusedMessage : (fieldState.error?.message ?? foreign))}
          />
        );
      }}
    />
  );
}
