import { Group, NumberInput, Switch } from '@mantine/core';
import { AUTO_STOP_LIMITS, idleMinutesSchema } from '@kumo/contract';

/** Auto-stop as a form holds it: on or off, and the minutes as typed (empty while being typed). */
export interface IdleMinutesValue {
  on: boolean;
  minutes: number | string;
}

export const idleValueOf = (idleMinutes: number | null): IdleMinutesValue =>
  idleMinutes === null ? { on: false, minutes: AUTO_STOP_LIMITS.defaultIdleMinutes } : { on: true, minutes: idleMinutes };

/** The request's idle_minutes, or the contract's message when the minutes are not 10 to 1,440. */
export function readIdleMinutes(value: IdleMinutesValue): { ok: true; idleMinutes: number | null } | { ok: false; error: string } {
  if (!value.on) return { ok: true, idleMinutes: null };
  const checked = idleMinutesSchema.safeParse(typeof value.minutes === 'number' ? value.minutes : Number.NaN);
  return checked.success ? { ok: true, idleMinutes: checked.data } : { ok: false, error: checked.error.issues[0]!.message };
}

/** The switch and the minutes of idle auto-stop, shared by the cluster page and the create form. */
export function IdleMinutesField({
  value,
  onChange,
  error,
  disabled,
}: {
  value: IdleMinutesValue;
  onChange: (value: IdleMinutesValue) => void;
  error?: string;
  disabled?: boolean;
}) {
  return (
    <Group align="flex-start" gap="md" wrap="wrap">
      <Switch
        mt={8}
        label="Stop when idle"
        checked={value.on}
        disabled={disabled}
        onChange={(event) => onChange({ ...value, on: event.currentTarget.checked })}
      />
      <NumberInput
        label="Idle minutes"
        description="10 to 1,440 minutes without a query"
        w={220}
        min={AUTO_STOP_LIMITS.minIdleMinutes}
        max={AUTO_STOP_LIMITS.maxIdleMinutes}
        clampBehavior="none"
        allowDecimal={false}
        allowNegative={false}
        disabled={disabled || !value.on}
        value={value.minutes}
        error={value.on ? error : undefined}
        onChange={(minutes) => onChange({ ...value, minutes })}
      />
    </Group>
  );
}
