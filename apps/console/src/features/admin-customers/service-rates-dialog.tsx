import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Alert, Button, Group, Modal, ScrollArea, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import {
  ADMIN_MESSAGES,
  FREE_UNIT_DIMENSIONS,
  METERING_DIMENSION_LABELS,
  freeUnitsError,
  rateError,
  type FreeUnitDimension,
  type MeteringDimension,
  type RateCard,
} from '@kumo/contract';
import dayjs from 'dayjs';
import { ApiError, errorMessage } from '../../lib/api-error';
import { FourEyesModal, type FourEyesForm } from './four-eyes-modal';

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

/** What a rate field keeps of a keystroke: 2 integer digits, 4 decimals, no sign or exponent (spec section 5). */
const RATE_TYPING = /^\d{0,2}(\.\d{0,4})?$/;
const FREE_UNITS_TYPING = /^\d{0,6}(\.\d{0,4})?$/;
const BLOCKED_KEYS = new Set(['e', 'E', '+', '-']);
const blockSigns = (event: KeyboardEvent<HTMLInputElement>) => {
  if (BLOCKED_KEYS.has(event.key)) event.preventDefault();
};
const isFreeUnitDimension = (d: string): d is FreeUnitDimension => (FREE_UNIT_DIMENSIONS as readonly string[]).includes(d);

/**
 * The server's per-field errors: `service_rate_errors` and `free_unit_errors` keyed by dimension,
 * sent in field_errors as `service_rate_errors.DIMENSION` / `free_unit_errors.DIMENSION` (or the bare
 * dimension for a rate).
 */
export function serverRateErrors(error: unknown): { rates: Record<string, string>; freeUnits: Record<string, string> } {
  const rates: Record<string, string> = {};
  const freeUnits: Record<string, string> = {};
  if (!(error instanceof ApiError)) return { rates, freeUnits };
  for (const [key, message] of Object.entries(error.fieldErrors)) {
    const match = /^(service_rate_errors|free_unit_errors|rate|freeUnits)?[.[]?([A-Z_]+)\]?$/.exec(key);
    if (!match) continue;
    const [, group, dimension] = match;
    if (group === 'free_unit_errors' || group === 'freeUnits') freeUnits[dimension!] = message;
    else rates[dimension!] = message;
  }
  return { rates, freeUnits };
}

function RatesForm({ form, userId, card, onCancel }: { form: FourEyesForm; userId: string; card: RateCard; onCancel: () => void }) {
  const initialRates = Object.fromEntries(card.rates.map((r) => [r.dimension, String(r.rate)])) as Record<MeteringDimension, string>;
  const initialFree = Object.fromEntries(FREE_UNIT_DIMENSIONS.map((d) => [d, String(card.free_units[d] ?? 0)])) as Record<
    FreeUnitDimension,
    string
  >;
  const [rates, setRates] = useState(initialRates);
  const [freeUnits, setFreeUnits] = useState(initialFree);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [effectiveDate, setEffectiveDate] = useState(dayjs().format('YYYY-MM-DD'));
  const [serverErrors, setServerErrors] = useState<{ rates: Record<string, string>; freeUnits: Record<string, string> }>({
    rates: {},
    freeUnits: {},
  });
  const fieldsRef = useRef<HTMLDivElement>(null);

  const dimensions = card.rates.map((r) => r.dimension);
  const rateErrors = Object.fromEntries(dimensions.map((d) => [d, rateError(rates[d])]));
  const freeErrors = Object.fromEntries(FREE_UNIT_DIMENSIONS.map((d) => [d, freeUnitsError(freeUnits[d])]));
  const hasError = Object.values(rateErrors).some(Boolean) || Object.values(freeErrors).some(Boolean);
  const changed =
    dimensions.some((d) => Number(rates[d]) !== Number(initialRates[d])) ||
    FREE_UNIT_DIMENSIONS.some((d) => Number(freeUnits[d]) !== Number(initialFree[d]));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(Object.fromEntries([...dimensions, ...FREE_UNIT_DIMENSIONS.map((d) => `free.${d}`)].map((k) => [k, true])));
    if (hasError || !changed) return;
    form
      .ask({
        action_name: 'change_service_rate',
        user_id: userId,
        action_payload: {
          user_id: userId,
          effective_date: effectiveDate || undefined,
          updated_service_rates: dimensions.map((dimension) => ({
            dimension,
            rate: rates[dimension],
            ...(isFreeUnitDimension(dimension) ? { freeUnits: freeUnits[dimension] } : {}),
          })),
        },
      })
      .catch((error: unknown) => {
        const found = serverRateErrors(error);
        setServerErrors(found);
        // The first field the server refused is scrolled into view and focused.
        requestAnimationFrame(() => {
          const first = fieldsRef.current?.querySelector<HTMLInputElement>('input[aria-invalid="true"]');
          first?.scrollIntoView({ block: 'center' });
          first?.focus();
        });
      });
  };

  const rateShown = (d: MeteringDimension) => serverErrors.rates[d] ?? (touched[d] ? rateErrors[d] : undefined);
  const freeShown = (d: FreeUnitDimension) => serverErrors.freeUnits[d] ?? (touched[`free.${d}`] ? freeErrors[d] : undefined);
  const generalError = form.error && Object.keys(serverErrors.rates).length + Object.keys(serverErrors.freeUnits).length === 0;

  return (
    <form noValidate onSubmit={submit}>
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
                      <TextInput
                        aria-labelledby={`rate-label-${row.dimension}`}
                        inputMode="decimal"
                        autoComplete="off"
                        value={rates[row.dimension]}
                        onKeyDown={blockSigns}
                        onChange={(event) => {
                          const next = event.currentTarget.value;
                          if (!RATE_TYPING.test(next)) return;
                          setRates((all) => ({ ...all, [row.dimension]: next }));
                          setServerErrors((all) => ({ ...all, rates: { ...all.rates, [row.dimension]: undefined as never } }));
                        }}
                        onBlur={() => setTouched((all) => ({ ...all, [row.dimension]: true }))}
                        error={rateShown(row.dimension)}
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
                <TextInput
                  key={dimension}
                  label={`Free ${METERING_DIMENSION_LABELS[dimension]} units a month`}
                  inputMode="decimal"
                  autoComplete="off"
                  value={freeUnits[dimension]}
                  onKeyDown={blockSigns}
                  onChange={(event) => {
                    const next = event.currentTarget.value;
                    if (!FREE_UNITS_TYPING.test(next)) return;
                    setFreeUnits((all) => ({ ...all, [dimension]: next }));
                    setServerErrors((all) => ({ ...all, freeUnits: { ...all.freeUnits, [dimension]: undefined as never } }));
                  }}
                  onBlur={() => setTouched((all) => ({ ...all, [`free.${dimension}`]: true }))}
                  error={freeShown(dimension)}
                />
              ))}
            </SimpleGrid>
            <TextInput
              type="date"
              label="Effective from"
              description="The new rates apply from midnight UTC of this day; the owner is told by e-mail."
              value={effectiveDate}
              min={dayjs().format('YYYY-MM-DD')}
              onChange={(event) => setEffectiveDate(event.currentTarget.value)}
              error={serverErrors.rates.effective_date}
            />
          </Stack>
        </ScrollArea.Autosize>
        {generalError ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(form.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={form.pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={!changed || hasError} loading={form.pending}>
            Change
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
