import { notifications } from '@mantine/notifications';
import { errorMessage } from '../lib/api-error';
import { requestToastHost } from '../lib/toast-host';

/** How long a toast stays, when not the default (UI_TIMING.notificationMs). */
type ToastOptions = { autoClose?: number };

// The rule: the result of an action that runs on while the person carries on (a save, a download, a toggle, an
// action whose dialog has closed) is a toast. A request that fails inside an open dialog or a page section is an
// <ErrorAlert> there; a field's error sits under the field.

export function notifySuccess(message: string, options: ToastOptions = {}): void {
  requestToastHost();
  notifications.show({ color: 'green', message, ...options });
}

/** Done, with a caveat the person should know (e.g. a receipt that cannot be downloaded). */
export function notifyWarning(message: string, options: ToastOptions = {}): void {
  requestToastHost();
  notifications.show({ color: 'yellow', message, ...options });
}

/** Failed: the error's message (the API's text), or the given text. */
export function notifyError(error: unknown, options: ToastOptions = {}): void {
  requestToastHost();
  notifications.show({ color: 'red', message: typeof error === 'string' ? error : errorMessage(error), ...options });
}
