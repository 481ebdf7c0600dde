import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { MENU } from '@sutura/domain/menu';
import { useSession } from '@/lib/session';

/** Whether the signed-in person's role may open the settings page at `path` (MENU roles). */
export function useAllowedFor(path: string): boolean {
  const { session } = useSession();
  const entry = MENU.find((m) => m.path === path);
  if (!entry) return true;
  const roles: readonly string[] = session?.roles ?? [];
  return entry.roles.some((role) => roles.includes(role));
}

function NotAvailableForRole() {
  const { t } = useTranslation('settings');
  return (
    <Alert severity="info" data-testid="not-available-for-role" sx={{ alignItems: 'flex-start' }}>
      <AlertTitle>{t('notAvailable.title')}</AlertTitle>
      {t('notAvailable.body')}
      <Box sx={{ mt: 1.5 }}>
        <Button component={RouterLink} to="/settings" variant="outlined" color="inherit" size="small">
          {t('notAvailable.back')}
        </Button>
      </Box>
    </Alert>
  );
}

/**
 * The frame of a settings page: a readable column, an optional introduction, and
 * a clear message instead of the content when the person's role may not use the page. The
 * server enforces the same rules on the data.
 */
export function SettingsPage({
  path,
  intro,
  maxWidth = 720,
  children,
}: {
  path: string;
  intro?: ReactNode;
  maxWidth?: number;
  children: ReactNode;
}) {
  const allowed = useAllowedFor(path);
  return (
    <Box sx={{ maxWidth, width: '100%', mx: 'auto', pb: 3 }}>
      {!allowed ? (
        <NotAvailableForRole />
      ) : (
        <>
          {intro && (
            <Typography color="text.secondary" sx={{ mb: 3 }}>
              {intro}
            </Typography>
          )}
          {children}
        </>
      )}
    </Box>
  );
}
