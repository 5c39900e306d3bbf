import { useSession } from './session';

/** Why a screen offers no change in a staff member's view; the server refuses them all the same. */
export const READ_ONLY_VIEW_REASON = "Read-only view: staff can look at the customer's console but change nothing.";

/**
 * True while a staff member views a customer's console (userSwitched): the server refuses every change in it,
 * so screens leave out what would only be refused (Start, Stop, Delete, New, Save, Add Funds, Add user, Resend, Revoke).
 */
export function useReadOnlyView(): boolean {
  return !!useSession().user?.userSwitched;
}
