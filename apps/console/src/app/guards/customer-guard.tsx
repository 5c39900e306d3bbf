import { Navigate, Outlet, useLocation } from 'react-router';
import { canUseCustomerArea, isSystemRole } from '@kumo/contract';
import { FullPageLoader } from '../../components/full-page-loader';
import { useSignedInUser } from '../../lib/use-signed-in-user';

/**
 * The customer area: signed-in account owners and admins of the logged-in account. Staff have the admin area
 * instead, which is also where a customer view ends (spec: a user-switched message goes to the customers page).
 */
export function CustomerGuard() {
  const location = useLocation();
  const state = useSignedInUser();
  if (state.status === 'signed-out') return <Navigate to="/login" replace state={{ from: location }} />;
  if (state.status === 'loading') return <FullPageLoader />;
  if (isSystemRole(state.user.role)) return <Navigate to="/admin/customers" replace />;
  if (!canUseCustomerArea(state.user.role)) return <Navigate to="/unauthorized-access" replace />;
  return <Outlet />;
}
