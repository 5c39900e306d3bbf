import { keepPreviousData, useMutation } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import { UI_TIMING, type CreditAnalysis, type CsvTable } from '@kumo/contract';
import { downloadFile } from '../../../lib/download-file';
import { notifyError } from '../../notify';

/**
 * One month's analysis of a subscription or a cluster. `subjectKey` comes from the owning feature's key factory
 * (subscriptionKeys.creditAnalysis, clusterKeys.creditAnalysis), so that feature's invalidations reach it.
 */
export function useCreditAnalysis(
  subjectKey: readonly unknown[],
  startDate: string,
  fetchAnalysis: (startDate: string, signal: AbortSignal) => Promise<CreditAnalysis>,
) {
  return useQuery({
    queryKey: [...subjectKey, startDate],
    queryFn: ({ signal }) => fetchAnalysis(startDate, signal),
    // Metering charges every minute; the tab follows while it is open.
    refetchInterval: UI_TIMING.pollingMs,
    placeholderData: keepPreviousData,
  });
}

/** Downloads one table of the month as CSV; a failure is a background action's result, so a notification. */
export function useCsvDownload(exportPath: string, startDate: string, subject: string) {
  return useMutation({
    mutationFn: (table: CsvTable) =>
      downloadFile(exportPath, { startDate, table }, `${subject}-${table}-${startDate.slice(0, 7)}.csv`.replace(/\s+/g, '-')),
    onError: (error) => notifyError(error),
  });
}
