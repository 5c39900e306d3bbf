import { useState } from 'react';
import { Navigate, useLocation, useParams, useSearchParams } from 'react-router';
import { Grid } from '@mantine/core';
import { CHECKOUT_RETURN_PARAMS } from '@kumo/contract';
import { SubscriptionsHeader } from '../../components/page-headers';
import { useActiveName } from '../../lib/active-names';
import { subscriptionsQuery, useSubscriptions } from './api/subscription-list';
import type { FirstRead } from '../../lib/api/first-reads';
import { PaymentResultDialog } from './payment-result-dialog';
import { paymentReturnFrom, type PaymentReturnState } from './payment-return';
import { SubscriptionDetails } from './subscription-details';
import { SubscriptionList } from './subscription-list';
import { lazyChunk } from '../../lib/load-chunk';
import { LoadedWhenOpened } from '../../components/loaded-when-opened';

// Loaded and rendered when first opened: its form and checks stay out of the page's first screen.
const CreateSubscriptionDialog = lazyChunk(() =>
  import('./create-subscription-dialog').then((m) => ({ default: m.CreateSubscriptionDialog })),
);

/**
 * /subscriptions, /subscriptions/{subscriptionId} and /subscriptions/payment-status/success: the list on
 * the left, the selection's details on the right. ?id= selects a subscription; ?session_id= (or a
 * cancelled purchase) is the payment provider's return, confirmed in a dialog once the URL is tidied.
 */
/** What the page is first shown with (app/routes.tsx). */
export const subscriptionsFirstReads = (): FirstRead[] => [subscriptionsQuery];

export function SubscriptionsPage() {
  const { subscriptionId: routeId } = useParams();
  const [search] = useSearchParams();
  const location = useLocation();
  const listQuery = useSubscriptions();
  const [creating, setCreating] = useState(false);
  const subscriptions = listQuery.data ?? [];
  const selected = subscriptions.find((subscription) => subscription.subscription_id === routeId);
  useActiveName('subscription', selected?.subscription_name);

  const returned = paymentReturnFrom(search, routeId);
  if (returned) {
    const state: PaymentReturnState = { paymentReturn: returned };
    return <Navigate to={`/subscriptions/${returned.subscriptionId}`} replace state={state} />;
  }
  const queryId = search.get(CHECKOUT_RETURN_PARAMS.subscriptionId);
  if (!routeId && queryId) return <Navigate to={`/subscriptions/${queryId}`} replace />;

  // The route follows the selection: with none, or one that is not in the list, the first is selected.
  const first = subscriptions[0];
  const paymentReturn = (location.state as PaymentReturnState | null)?.paymentReturn;
  if (listQuery.isSuccess && first && !selected && !paymentReturn) {
    return <Navigate to={`/subscriptions/${first.subscription_id}`} replace />;
  }

  return (
    <>
      <SubscriptionsHeader />
      <Grid gap="lg" columns={24}>
        <Grid.Col span={{ base: 24, lg: 7 }}>
          <SubscriptionList query={listQuery} selectedId={routeId} onNew={() => setCreating(true)} />
        </Grid.Col>
        <Grid.Col span={{ base: 24, lg: 17 }}>
          <SubscriptionDetails subscription={selected} loading={listQuery.isPending} />
        </Grid.Col>
      </Grid>
      <LoadedWhenOpened opened={creating}>
        <CreateSubscriptionDialog opened={creating} onClose={() => setCreating(false)} />
      </LoadedWhenOpened>
      {paymentReturn && <PaymentResultDialog paymentReturn={paymentReturn} />}
    </>
  );
}
