import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** The file name the server gives in Content-Disposition, or the transaction id. */
export function receiptFileName(headers: Headers, transactionId: string): string {
  const disposition = headers.get('content-disposition') ?? '';
  return /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? `${transactionId}.pdf`;
}

/** Fetches a purchase's PDF receipt and hands it to the browser as a download. */
export async function downloadReceipt(transactionId: string): Promise<string> {
  const { data, headers } = await apiRequest<Blob>(`/api/credit/subscription/${encodeURIComponent(transactionId)}`, {
    responseType: 'blob',
  });
  const fileName = receiptFileName(headers, transactionId);
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return fileName;
}

export function useDownloadReceipt() {
  return useMutation({ mutationFn: downloadReceipt });
}
