import { Select } from '@mantine/core';

interface MonthSelectProps {
  /** The months offered, as costMonthOptions gives them. */
  options: { value: string; label: string }[];
  value: string;
  onChange: (startDate: string) => void;
  label?: string;
}

/** The month picker of the cost views and the audit logs: always one of the months offered (UTC months). */
export function MonthSelect({ options, value, onChange, label = 'Month' }: MonthSelectProps) {
  return (
    <Select
      label={label}
      data={options}
      value={value}
      onChange={(next) => next && onChange(next)}
      allowDeselect={false}
      w={180}
      size="sm"
      comboboxProps={{ withinPortal: true }}
    />
  );
}
