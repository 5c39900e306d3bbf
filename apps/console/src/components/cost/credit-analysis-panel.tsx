import { useState, type ReactNode } from 'react';
import { Button, EmptyState, Group, Stack, Text } from '@mantine/core';
import { METERING_MESSAGES, type CreditAnalysis } from '@kumo/contract';
import { CardLoader } from '../card-states';
import { useCreditAnalysis, useCsvDownload } from './api/credit-analysis';
import { IconChart, IconDownload } from '../icons';
import { CostLoadError } from './cost-load-error';
import { fromFirstUsage } from './first-usage';
import { NoUsageBefore } from './no-usage-before';
import { ConsumptionTable, CostTableWithFullScreen } from './cost-tables';
import { MonthSelect } from './month-select';
import { costMonthOptions, monthLabel } from './months';

export interface CreditAnalysisPanelProps {
  /** Cache key of this subject's analyses, from its feature's key factory; the month is appended. */
  queryKey: readonly unknown[];
  fetchAnalysis: (startDate: string, signal: AbortSignal) => Promise<CreditAnalysis>;
  /** The CSV export endpoint (CONSUMPTION_EXPORT_PATHS), asked with ?startDate&table. */
  exportPath: string;
  /** Names the tables and downloaded files: a subscription's or cluster's name. */
  subject: string;
  /** Above the tables: the month's figures this subject shows (actual, forecast …), given the chosen month. */
  summary?: (startDate: string) => ReactNode;
  now?: Date;
}

/** True when the month holds no charge at all: the spec's empty state replaces the tables. */
export function isAllZero(analysis: CreditAnalysis): boolean {
  return analysis.total === 0 && analysis.daily.every((day) => day.daily_total === 0);
}

/**
 * A subscription's or a cluster's Cost Analysis tab: a month picker (the current and two previous months),
 * the cost table with its full-screen view, the consumption table, and CSV downloads of both.
 */
export function CreditAnalysisPanel({ queryKey, fetchAnalysis, exportPath, subject, summary, now }: CreditAnalysisPanelProps) {
  const [options] = useState(() => costMonthOptions(now));
  const [startDate, setStartDate] = useState(options[0]!.value);
  const analysis = useCreditAnalysis(queryKey, startDate, fetchAnalysis);
  const download = useCsvDownload(exportPath, startDate, subject);
  const month = monthLabel(startDate);
  const data = analysis.data;
  const empty = data ? isAllZero(data) : false;
  const shown = data ? fromFirstUsage(data) : null;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <MonthSelect options={options} value={startDate} onChange={setStartDate} />
        <Group gap="xs">
          <Button
            variant="default"
            size="sm"
            leftSection={<IconDownload size={16} />}
            loading={download.isPending && download.variables === 'cost'}
            disabled={!data}
            onClick={() => download.mutate('cost')}
          >
            Cost CSV
          </Button>
          <Button
            variant="default"
            size="sm"
            leftSection={<IconDownload size={16} />}
            loading={download.isPending && download.variables === 'consumption'}
            disabled={!data}
            onClick={() => download.mutate('consumption')}
          >
            Consumption CSV
          </Button>
        </Group>
      </Group>

      {summary?.(startDate)}

      {analysis.isError && !data ? (
        <CostLoadError error={analysis.error} />
      ) : !shown ? (
        <CardLoader label="Loading cost analysis" />
      ) : empty ? (
        <EmptyState variant="light" icon={<IconChart size={24} />} title={METERING_MESSAGES.costUnavailable} py="xl" />
      ) : (
        <>
          <NoUsageBefore day={shown.firstDay} />
          <CostTableWithFullScreen analysis={shown.analysis} caption={`Daily cost of ${subject}, ${month}`} />
          <Text fw={600}>Consumption</Text>
          <ConsumptionTable analysis={shown.analysis} caption={`Daily consumption of ${subject}, ${month}`} />
        </>
      )}
    </Stack>
  );
}
