import { Navigate, Outlet } from 'react-router';
import { FullPageLoader } from '../../components/full-page-loader';
import { useSignedInUser } from '../../lib/use-signed-in-user';

/**
 * The unauthorized pages are for signed-in people whose role does not fit (spec: customer routes sit behind
 * the guard); an anonymous visitor has nothing to be refused yet and goes to the sign-in page instead.
 */
export function SignedInGuard({ signInPath }: { signInPath: string }) {
  const state = useSignedInUser();
  if (state.status === 'signed-out') return <Navigate to={signInPath} replace />;
  if (state.status === 'loading') return <FullPageLoader />;
  return <Outlet />;
}
