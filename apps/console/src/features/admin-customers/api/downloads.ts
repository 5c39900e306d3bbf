import { apiRequest } from '../../../lib/api-client';

/** The file name the server gives in Content-Disposition, or the fallback. */
function fileNameOf(headers: Headers, fallback: string): string {
  const disposition = headers.get('content-disposition') ?? '';
  return /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallback;
}

/** Hands a fetched file to the browser as a download and returns its name. */
export async function downloadFile(path: string, userId: string, fallbackName: string): Promise<string> {
  // Calls on one item of a customer name the customer too, which scopes them on the server.
  const { data, headers } = await apiRequest<Blob>(path, { responseType: 'blob', query: { userId } });
  const fileName = fileNameOf(headers, fallbackName);
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

export const downloadDeploymentTemplate = (userId: string, deploymentId: string) =>
  downloadFile(`/api/admin/download-cluster-template/${encodeURIComponent(deploymentId)}`, userId, `${deploymentId}-template.json`);

export const downloadAdminReceipt = (userId: string, transactionId: string) =>
  downloadFile(`/api/admin/download-transaction-receipt/${encodeURIComponent(transactionId)}`, userId, `${transactionId}.pdf`);
