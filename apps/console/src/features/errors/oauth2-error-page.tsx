import { Navigate, useSearchParams } from 'react-router';

/** /oauth2/error: back to the admin login, carrying the identity provider's error as the banner message. */
export function OAuth2ErrorPage() {
  const [params] = useSearchParams();
  const error = params.get('error');
  return error ? <Navigate to="/admin/login" state={{ message: error }} /> : <Navigate to="/admin/login" replace />;
}
