import { Suspense } from 'react';
import { Link as RouterLink, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import { LAYOUT } from '@sutura/domain/limits';
import { LanguageSwitcher } from '@/components/language-switcher';
import { Logo } from '@/components/logo';
import { PageLoader } from '@/components/page-loader';
import { ThemeToggle } from '@/components/theme-toggle';

/** Pages without a session: a narrow centred column under a simple header. */
export function PublicLayout() {
  const { t } = useTranslation('common');
  return (
    <Box sx={{ minHeight: '100dvh', bgcolor: 'background.default', color: 'text.primary' }}>
      <Box sx={{ maxWidth: LAYOUT.unauthenticatedMaxWidth, mx: 'auto', px: { xs: 2.5, sm: 3.75 } }}>
        <Box
          component="header"
          sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', minHeight: LAYOUT.headerHeight, gap: 1 }}
        >
          <Box
            component={RouterLink}
            to="/auth/login"
            aria-label={t('homeLink')}
            sx={{ textDecoration: 'none', color: 'inherit', borderRadius: 1 }}
          >
            <Logo size={40} />
          </Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            <LanguageSwitcher />
            <ThemeToggle />
          </Box>
        </Box>
        <Box component="main" sx={{ pb: 6, pt: { xs: 1, sm: 3 } }}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </Box>
  );
}
