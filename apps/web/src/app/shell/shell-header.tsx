import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import Logout from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import { LAYOUT } from '@sutura/domain/limits';
import { routeHeader } from '@sutura/domain/menu';
import { LanguageSwitcher } from '@/components/language-switcher';
import { ThemeToggle } from '@/components/theme-toggle';
import { UserAvatar } from '@/app/shell/user-avatar';
import { useLogout } from '@/app/shell/use-logout';
import { NotificationBell } from '@/features/notifications/components/notification-bell';
import { useSession } from '@/lib/session';
import { LazyTooltip } from '@/components/lazy-tooltip';

function parentPath(pathname: string): string {
  const parts = pathname.replace(/\/+$/, '').split('/');
  parts.pop();
  return parts.join('/') || '/dashboard';
}

interface ShellHeaderProps {
  large: boolean;
  showMenuButton: boolean;
  onOpenMenu(): void;
  onOpenNotifications(): void;
}

export function ShellHeader({ large, showMenuButton, onOpenMenu, onOpenNotifications }: ShellHeaderProps) {
  const { t } = useTranslation(['menu', 'shell']);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { session } = useSession();
  const logout = useLogout();
  const { titleKey, back } = routeHeader(pathname);

  const goBack = () => {
    // Opened from a link in another tab there is no history to go back to.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate(parentPath(pathname));
  };

  return (
    <Box
      component="header"
      sx={{
        position: 'sticky',
        top: 0,
        zIndex: (theme) => theme.zIndex.appBar,
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        minHeight: { xs: 64, md: LAYOUT.headerHeight },
        px: { xs: 1.5, sm: 2.5, md: 3.75, lg: 5 },
        bgcolor: 'background.default',
        color: 'text.primary',
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      {showMenuButton && (
        <IconButton aria-label={t('shell:openMenu')} onClick={onOpenMenu} edge="start" color="inherit">
          <MenuIcon />
        </IconButton>
      )}
      {back && (
        <IconButton aria-label={t('shell:back')} onClick={goBack} edge="start" color="inherit">
          <ArrowBack />
        </IconButton>
      )}
      {/* A long title ("Ajouter une vidéo") wraps onto a second line on a phone rather than being cut. */}
      {/* Where the keyboard lands after a change of page (app/layouts/signed-in-layout.tsx). */}
      <Typography
        id="page-title"
        tabIndex={-1}
        variant="h1"
        sx={{ flex: 1, minWidth: 0, fontSize: { xs: 18, sm: 22 }, lineHeight: 1.25, overflowWrap: 'anywhere' }}
      >
        {t(`menu:${titleKey}`)}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: { xs: 0, sm: 0.5 } }}>
        <NotificationBell onOpen={onOpenNotifications} />
        <LanguageSwitcher />
        <ThemeToggle />
        {large && session ? (
          <>
            <LazyTooltip title={t('shell:myAccount')}>
              <IconButton component={RouterLink} to="/my-account" aria-label={t('shell:myAccount')} sx={{ ml: 1, p: 0.5 }}>
                <UserAvatar session={session} />
              </IconButton>
            </LazyTooltip>
            <Button data-testid="logout" onClick={logout} color="inherit" startIcon={<Logout />} sx={{ ml: 1 }}>
              {t('shell:logout')}
            </Button>
          </>
        ) : (
          <LazyTooltip title={t('shell:logout')}>
            <IconButton data-testid="logout" aria-label={t('shell:logout')} onClick={logout} color="inherit">
              <Logout />
            </IconButton>
          </LazyTooltip>
        )}
      </Box>
    </Box>
  );
}
