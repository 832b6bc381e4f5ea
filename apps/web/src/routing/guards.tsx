import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../account/session';
import { PageLoader } from '../layout/AppFrame';
import { homeFallbackHref, loginRedirectHref } from './paths';

/** Login routes send signed-out visitors to /login?redirect=<path+query>. */
export function RequireLogin() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <PageLoader />;
  if (status === 'anonymous') {
    return <Navigate to={loginRedirectHref(location.pathname, location.search)} replace />;
  }
  return <Outlet />;
}

/** Anything else redirects to /home keeping query and hash. */
export function HomeFallback() {
  const { search, hash } = useLocation();
  return <Navigate to={homeFallbackHref(search, hash)} replace />;
}
