import { CLUSTER_MESSAGES, MESSAGES, type ManagerTicketPage } from '@kumo/contract';
import { ApiError } from '../../lib/api-error';

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

const TEXTS: Record<ManagerTicketPage, { invalid: string; failed: string; opening: string }> = {
  manager: {
    invalid: CLUSTER_MESSAGES.managerInvalidUrl,
    failed: CLUSTER_MESSAGES.managerOpenFailed,
    opening: CLUSTER_MESSAGES.managerOpening,
  },
  portal: {
    invalid: CLUSTER_MESSAGES.portalInvalidUrl,
    failed: CLUSTER_MESSAGES.portalOpenFailed,
    opening: CLUSTER_MESSAGES.portalOpening,
  },
};

/** A refusal the server explains (no access, the cluster no longer online) is said as it is; anything else is a failure. */
const isRefusal = (failure: unknown) => failure instanceof ApiError && (failure.status === 403 || failure.status === 422);

/**
 * Opens the cluster's Kumo Manager (or Web Portal) in a new window. The window is opened within the click (so the
 * browser does not take it for an unasked popup) and says 'Opening manager' while the person's own signed address is
 * asked for; a refused or failed request, or an address that is not a valid URL, closes it again and is reported with
 * the spec's texts (a refusal with the server's reason).
 */
export async function openClusterManager(
  deploymentId: string,
  readUrl: () => Promise<string | null>,
  page: ManagerTicketPage = 'manager',
): Promise<void> {
  const texts = TEXTS[page];
  let popup: Window | null;
  try {
    popup = window.open('', `kumo-${page}-${deploymentId}`);
  } catch {
    throw new Error(texts.failed);
  }
  if (!popup) throw new Error(MESSAGES.popupBlocked);
  try {
    popup.document.title = texts.opening;
    popup.document.body.textContent = `${texts.opening}…`;
  } catch {
    // A window left from an earlier opening may already show the page (another origin): nothing to write then.
  }
  let url: string | null;
  try {
    url = await readUrl();
  } catch (failure) {
    popup.close();
    throw new Error(isRefusal(failure) ? (failure as ApiError).message : texts.failed, { cause: failure });
  }
  if (!isManagerUrl(url)) {
    popup.close();
    throw new Error(texts.invalid);
  }
  try {
    popup.opener = null;
    popup.location.replace(url);
  } catch {
    popup.close();
    throw new Error(texts.failed);
  }
}
