import { useMutation } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import { notifyError } from '../../../components/notify';
import { api } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download-file';
import { subscriptionKeys } from './keys';

const statementPath = (subscriptionId: string) => `/api/subscription/statement/${encodeURIComponent(subscriptionId)}` as const;

/** One month's statement as JSON, fetched when the person opens it. */
export function useStatement(subscriptionId: string, month: string | null) {
  return useQuery({
    queryKey: [...subscriptionKeys.details(subscriptionId), 'statement', month],
    queryFn: ({ signal }) => api.get(statementPath(subscriptionId), { query: { month: month!, format: 'json' }, signal }),
    enabled: month !== null,
  });
}

/** Downloads a month's statement as PDF; a failure is a notification. */
export function useStatementPdf(subscriptionId: string) {
  return useMutation({
    mutationFn: (month: string) => downloadFile(statementPath(subscriptionId), { month, format: 'pdf' }, `statement-${month}.pdf`),
    onError: (error) => notifyError(error),
  });
}
