import { NativeSelect } from '@mantine/core';

interface MonthSelectProps {
  /** The months offered, as costMonthOptions gives them. */
  options: { value: string; label: string }[];
  value: string;
  onChange: (startDate: string) => void;
  label?: string;
}

/**
 * The month picker of the cost views and the audit logs: always one of the months offered (UTC months). The browser's
 * own select: a phone opens its native picker, and the page renders no popover, list and floating position for it.
 */
export function MonthSelect({ options, value, onChange, label = 'Month' }: MonthSelectProps) {
  return (
    <NativeSelect label={label} data={options} value={value} onChange={(event) => onChange(event.currentTarget.value)} w={180} size="sm" />
  );
}
