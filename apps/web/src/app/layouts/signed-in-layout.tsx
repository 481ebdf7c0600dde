import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import Box from '@mui/material/Box';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { LAYOUT } from '@sutura/domain/limits';
import { mayOpen, MENU } from '@sutura/domain/menu';
import { PageLoader } from '@/components/page-loader';
import { LeftMenu } from '@/app/shell/left-menu';
import { ShellHeader } from '@/app/shell/shell-header';
import { TabBar } from '@/app/shell/tab-bar';
import { UploadProgressBar } from '@/app/shell/upload-progress-bar';
import { isActivePath } from '@/app/shell/use-menu-entries';
import { NotAllowedPage } from '@/app/route-error';
import { AvailablePagesProvider } from '@/lib/available-pages';
import { useSession } from '@/lib/session';
import { AdminThemeScope } from '@/lib/theme';
import { useUiState } from '@/lib/ui-state';

// Fetched when the bell is first pressed: the first screen draws without the panel's code.
const NotificationsSidebar = lazy(async () => ({
  default: (await import('@/features/notifications/components/notifications-sidebar')).NotificationsSidebar,
}));

const TAB_BAR_QUERY = `(max-width: ${LAYOUT.tabBarMaxWindowWidth}px)`;

function Shell() {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const { fullscreen } = useUiState();
  const { session } = useSession();
  const large = useMediaQuery((theme: Theme) => theme.breakpoints.up('lg'), { noSsr: true });
  const tabBar = useMediaQuery(TAB_BAR_QUERY, { noSsr: true });
  // Remembering where the menu was opened closes it on every route change.
  const [menuOpenAt, setMenuOpenAt] = useState<string | null>(null);
  const menuOpen = !large && menuOpenAt === pathname;
  const [notificationsOpen, setNotificationsOpen] = useState(false);
  // Mounted from the first opening on, so that it closes with its animation.
  const [notificationsOpened, setNotificationsOpened] = useState(false);
  // The panel marks what it shows as read when it opens (NotificationsSidebar).
  const openNotifications = () => {
    setNotificationsOpen(true);
    setNotificationsOpened(true);
  };

  // After a change of page the keyboard moves to the new page's title, unless the new page took it
  // (a field with autofocus, a heading of its own), a dialog holds it, or the person moved it
  // already: never left on what had it on the page left (the button that sent a form, a link of
  // the menu just used), nor on the page's body. Its first page too (after signing in, or loaded):
  // from <body>, the keyboard starts at its title.
  // The new page may draw after the change (its code or texts loading, the page left still shown
  // meanwhile): the focus is checked again at each frame until the page has drawn.
  const focusedOn = useRef(new WeakMap<Element, string>());
  useEffect(() => {
    const note = (event: FocusEvent) => {
      if (event.target instanceof Element) focusedOn.current.set(event.target, window.location.pathname);
    };
    document.addEventListener('focusin', note);
    return () => document.removeEventListener('focusin', note);
  }, []);
  useEffect(() => {
    const placeFocus = () => {
      const active = document.activeElement;
      if (active && active !== document.body && active.isConnected) {
        if (active.closest('[role="dialog"]')) return;
        // Focused since the change, on this page: the page's or the person's choice.
        const at = focusedOn.current.get(active);
        if (at === pathname && active.id !== 'page-title') return;
        if (at === undefined) {
          const main = document.getElementById('main-content');
          if (main && active !== main && main.contains(active)) return;
        }
      }
      const title = document.getElementById('page-title');
      if (title && active !== title) title.focus({ preventScroll: true });
    };
    const drawn = () => !document.querySelector('#main-content [data-testid="route-skeleton"], #main-content [data-testid="page-loader"]');
    placeFocus();
    // Until the page has drawn (and once after), or 20 s at most.
    const until = performance.now() + 20_000;
    let frame = 0;
    const check = () => {
      placeFocus();
      if (!drawn() && performance.now() < until) frame = requestAnimationFrame(check);
      else frame = requestAnimationFrame(placeFocus);
    };
    frame = requestAnimationFrame(check);
    return () => cancelAnimationFrame(frame);
  }, [pathname]);

  const admin = MENU.some((entry) => entry.admin && isActivePath(entry.path, pathname));
  // A page whose texts or code are still loading shows the loader inside the shell, never its keys.
  const outlet = mayOpen(session?.roles ?? [], pathname) ? (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  ) : (
    <NotAllowedPage />
  );
  const page = admin ? <AdminThemeScope>{outlet}</AdminThemeScope> : outlet;

  return (
    <Box sx={{ display: 'flex', minHeight: '100dvh', bgcolor: 'background.default', color: 'text.primary' }}>
      <Box
        component="a"
        href="#main-content"
        sx={{
          position: 'absolute',
          left: 8,
          top: -48,
          zIndex: 2000,
          px: 2,
          py: 1,
          borderRadius: 1,
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
          fontWeight: 700,
          '&:focus': { top: 8 },
        }}
      >
        {t('skipToContent')}
      </Box>
      <LeftMenu permanent={large} open={menuOpen} onClose={() => setMenuOpenAt(null)} />
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        {!fullscreen && (
          <ShellHeader
            large={large}
            showMenuButton={!large && !tabBar}
            onOpenMenu={() => setMenuOpenAt(pathname)}
            onOpenNotifications={openNotifications}
          />
        )}
        <UploadProgressBar compact={tabBar} />
        <Box
          component="main"
          id="main-content"
          // The page the shell shows: a change of page commits once its code is there (the page
          // left stays meanwhile), after the address has changed.
          data-pathname={pathname}
          tabIndex={-1}
          sx={{
            flex: 1,
            outline: 'none',
            px: { xs: 2.5, md: 3.75, lg: 5, xl: 6.25 },
            pt: 3,
            pb: tabBar ? `${LAYOUT.tabBarHeight + 24}px` : 4,
          }}
        >
          {page}
        </Box>
      </Box>
      {notificationsOpened && (
        <Suspense fallback={null}>
          <NotificationsSidebar open={notificationsOpen} onClose={() => setNotificationsOpen(false)} />
        </Suspense>
      )}
      {tabBar && <TabBar menuOpen={menuOpen} onToggleMenu={() => setMenuOpenAt(menuOpen ? null : pathname)} />}
    </Box>
  );
}

/** Every page that needs a session: nothing of it renders without a token. */
export function SignedInLayout({ availablePaths = new Set<string>() }: { availablePaths?: ReadonlySet<string> }) {
  const { status } = useSession();
  if (status === 'loading') return <PageLoader fullScreen />;
  if (status === 'signedOut') return <Navigate to="/auth/login" replace />;
  return (
    <AvailablePagesProvider paths={availablePaths}>
      <Shell />
    </AvailablePagesProvider>
  );
}
