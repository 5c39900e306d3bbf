import { Navigate, Outlet, useLocation } from 'react-router';
import { canUseCustomerArea, isSystemRole } from '@kumo/contract';
import { FullPageLoader } from '../../components/full-page-loader';
import { useSignedInUser } from '../../lib/use-signed-in-user';

/**
 * The customer area: signed-in account owners and admins of the logged-in account. Any other role, staff included,
 * goes to the unauthorized page (spec section 2: "a wrong role goes to the relevant unauthorized route"), which offers
 * staff the way to their customers page (decision 0027). A customer view that ends navigates there itself.
 */
export function CustomerGuard() {
  const location = useLocation();
  const state = useSignedInUser();
  if (state.status === 'signed-out') return <Navigate to="/login" replace state={{ from: location }} />;
  if (state.status === 'loading') return <FullPageLoader />;
  // The bare address is the console's front door, not a customer page: staff enter their own area there.
  if (isSystemRole(state.user.role) && location.pathname === '/') return <Navigate to="/admin/customers" replace />;
  if (!canUseCustomerArea(state.user.role)) return <Navigate to="/unauthorized-access" replace />;
  return <Outlet />;
}
