import { Navigate, Outlet } from 'react-router';
import { isSystemRole } from '@kumo/contract';
import { FullPageLoader } from '../../components/full-page-loader';
import { useSignedInUser } from '../../lib/use-signed-in-user';

/** The admin area: provider staff only. */
export function AdminGuard() {
  const state = useSignedInUser();
  if (state.status === 'signed-out') return <Navigate to="/admin/login" replace />;
  if (state.status === 'loading') return <FullPageLoader />;
  if (!isSystemRole(state.user.role)) return <Navigate to="/admin/unauthorized-access" replace />;
  return <Outlet />;
}
