import { Select } from '@mantine/core';

interface MonthSelectProps {
  /** The months offered, as costMonthOptions gives them. */
  options: { value: string; label: string }[];
  value: string;
  onChange: (startDate: string) => void;
}

/** The month picker of the cost views: always one of the months offered. */
export function MonthSelect({ options, value, onChange }: MonthSelectProps) {
  return (
    <Select
      label="Month"
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
