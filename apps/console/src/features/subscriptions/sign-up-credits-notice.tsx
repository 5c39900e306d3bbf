import { Alert } from '@mantine/core';
import { MESSAGES } from '@kumo/contract';
import { IconGift } from '../../components/icons';
import { useSubscriptions } from './api/subscription-list';

/**
 * Only an account's first subscription gets the sign-up credits, so the create dialog says which case this is.
 * The API grants them when the account never had a subscription; the list holds live ones only, so an account
 * whose subscriptions were all deleted is told about credits it will not get (rare: the notice errs on that side).
 */
export function SignUpCreditsNotice() {
  const list = useSubscriptions();
  // Nothing is claimed until the list says which case this is.
  if (!list.isSuccess) return null;
  const first = list.data.length === 0;
  return (
    <Alert variant="light" color={first ? 'teal' : 'yellow'} icon={first ? <IconGift size={18} /> : undefined} role="note">
      {first ? MESSAGES.freeCreditsFirstSubscription : MESSAGES.noFreeCreditsLaterSubscription}
    </Alert>
  );
}
