import dayjs from 'dayjs';
import { Select } from '@mantine/core';
import { MONTH_FORMAT } from '@kumo/contract';

/** How many months the pickers offer: the current one and the two before it (spec section 9). */
export const MONTHS_OFFERED = 3;

/** The first day of a month as the API's startDate: 'YYYY-MM-01T00:00:00'. */
export function monthStart(date: dayjs.Dayjs | Date = new Date()): string {
  return dayjs(date).startOf('month').format('YYYY-MM-DDTHH:mm:ss');
}

/** The months offered, newest first, as {value: startDate, label: 'MMM, YYYY'}. */
export function monthOptions(now: Date = new Date()): { value: string; label: string }[] {
  return Array.from({ length: MONTHS_OFFERED }, (_, index) => {
    const month = dayjs(now).startOf('month').subtract(index, 'month');
    return { value: monthStart(month), label: month.format(MONTH_FORMAT) };
  });
}

interface MonthPickerProps {
  value: string;
  onChange: (startDate: string) => void;
  label?: string;
}

export function MonthPicker({ value, onChange, label = 'Month' }: MonthPickerProps) {
  return (
    <Select
      label={label}
      data={monthOptions()}
      value={value}
      onChange={(next) => next && onChange(next)}
      allowDeselect={false}
      w={180}
      size="sm"
      comboboxProps={{ withinPortal: true }}
    />
  );
}
