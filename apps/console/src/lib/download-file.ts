import { apiRequest } from './api-client';

/** The file name the server gives in Content-Disposition, or the fallback. */
export function fileNameFrom(headers: Headers, fallback: string): string {
  const disposition = headers.get('content-disposition') ?? '';
  return /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallback;
}

/** Fetches a file from the API (with the session's token) and hands it to the browser as a download. */
export async function downloadFile(path: string, query: Record<string, string | undefined>, fallbackName: string): Promise<string> {
  const { data, headers } = await apiRequest<Blob>(path, { query, responseType: 'blob' });
  const fileName = fileNameFrom(headers, fallbackName);
  saveBlob(data, fileName);
  return fileName;
}

/** Hands a file made in the browser to the browser as a download. */
export function saveBlob(data: Blob, fileName: string): void {
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
