import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '../../../lib/download-file';

/** Fetches a purchase's PDF receipt and hands it to the browser as a download. */
export function downloadReceipt(transactionId: string): Promise<string> {
  return downloadFile(`/api/credit/subscription/${encodeURIComponent(transactionId)}`, {}, `${transactionId}.pdf`);
}

export function useDownloadReceipt() {
  return useMutation({ mutationFn: downloadReceipt });
}
