import { MESSAGES } from '@kumo/contract';
import { api } from '../../lib/api-client';

/**
 * Opens the cluster's manager in a new window by a form post to the short-lived signed address the
 * API gives (spec section 7). The window is opened within the click, before the call, so the
 * browser does not take it for an unasked popup; a blocked one is reported.
 */
export async function openManager(userId: string, deploymentId: string): Promise<void> {
  const target = `kumo-manager-${deploymentId}`;
  const popup = window.open('about:blank', target);
  if (!popup) throw new Error(MESSAGES.popupBlocked);
  try {
    const { url } = await api.get(`/api/admin/kumo/sso/${deploymentId}`, { query: { userId } });
    const form = document.createElement('form');
    form.method = 'post';
    form.action = url;
    form.target = target;
    form.style.display = 'none';
    document.body.append(form);
    form.submit();
    form.remove();
  } catch (error) {
    popup.close();
    throw error;
  }
}
