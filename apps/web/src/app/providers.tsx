import { Outlet } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '@/lib/query';
import { RealtimeProvider } from '@/lib/realtime';
import { SessionProvider } from '@/lib/session';
import { ColorModeProvider } from '@/lib/theme';
import { ToastProvider } from '@/lib/toast';
import { UiStateProvider } from '@/lib/ui-state';
import { UploadsProvider } from '@/lib/uploads';

/** The root route: every provider lives inside the router so the session can navigate. */
export function AppProviders() {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <ColorModeProvider>
          <UiStateProvider>
            <ToastProvider>
              <UploadsProvider>
                <RealtimeProvider>
                  <Outlet />
                </RealtimeProvider>
              </UploadsProvider>
            </ToastProvider>
          </UiStateProvider>
        </ColorModeProvider>
      </SessionProvider>
    </QueryClientProvider>
  );
}
