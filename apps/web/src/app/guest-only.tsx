import { Navigate, Outlet } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { useSession } from '@/lib/session';

/** Sign-in pages: a person already signed in goes to the dashboard. */
export function GuestOnly() {
  const { status } = useSession();
  if (status === 'loading') return <PageLoader />;
  if (status === 'signedIn') return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
