import { CLUSTER_MESSAGES, MESSAGES } from '@kumo/contract';

/** A manager address the console will open: present, and an http(s) URL (spec section 5). */
export function isManagerUrl(url: string | null | undefined): url is string {
  if (!url) return false;
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * Opens the cluster's Kumo Manager in a new window. The window is opened within the click (so the browser does not
 * take it for an unasked popup) and says 'Opening manager' while a fresh signed address is read; a failed reading
 * or an address that is not a valid URL closes it again and is reported with the spec's texts.
 */
export async function openClusterManager(deploymentId: string, readUrl: () => Promise<string | null>): Promise<void> {
  let popup: Window | null;
  try {
    popup = window.open('', `kumo-manager-${deploymentId}`);
  } catch {
    throw new Error(CLUSTER_MESSAGES.managerOpenFailed);
  }
  if (!popup) throw new Error(MESSAGES.popupBlocked);
  try {
    popup.document.title = CLUSTER_MESSAGES.managerOpening;
    popup.document.body.textContent = `${CLUSTER_MESSAGES.managerOpening}…`;
  } catch {
    // A window left from an earlier opening may already show the manager (another origin): nothing to write then.
  }
  let url: string | null;
  try {
    url = await readUrl();
  } catch {
    popup.close();
    throw new Error(CLUSTER_MESSAGES.managerOpenFailed);
  }
  if (!isManagerUrl(url)) {
    popup.close();
    throw new Error(CLUSTER_MESSAGES.managerInvalidUrl);
  }
  try {
    popup.opener = null;
    popup.location.replace(url);
  } catch {
    popup.close();
    throw new Error(CLUSTER_MESSAGES.managerOpenFailed);
  }
}
