import { useEffect, useRef } from 'react';
import { PageLoader } from '@/components/page-loader';
import { useSession } from '@/lib/session';

export function LogoutPage() {
  const { signOut } = useSession();
  const started = useRef(false);
  useEffect(() => {
    // Strict mode runs effects twice; the token must be revoked once.
    if (started.current) return;
    started.current = true;
    void signOut();
  }, [signOut]);
  return <PageLoader />;
}
