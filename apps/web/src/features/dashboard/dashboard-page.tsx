import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import ArrowForward from '@mui/icons-material/ArrowForward';
import { isNavigationEntry, MENU } from '@sutura/domain/menu';
import { useMyProgrammes } from '@/lib/my-programmes';
import { hasAnyRole } from '@sutura/domain/roles';
import { MENU_ICONS } from '@/components/menu-icons';
import { useAvailablePages } from '@/lib/available-pages';
import { useSession } from '@/lib/session';
import { useDashboard } from '@/features/dashboard/api/dashboard';
import { LearnerSection } from '@/features/dashboard/components/learner-section';
import { useDemoState } from '@/features/dashboard/api/demo-state';
import { WorkerSection } from '@/features/dashboard/components/worker-section';
import { RetryAlert } from '@/components/retry-alert';

/** The person's spaces, in menu order; a space appears once its page exists. */
function useSpaces() {
  const { session } = useSession();
  const available = useAvailablePages();
  const roles = session?.roles ?? [];
  // "Programmes" for the directors of a programme only, as the server says (the menu's rule).
  const directs = (useMyProgrammes().data?.directed.length ?? 0) > 0;
  return MENU.filter(isNavigationEntry).filter(
    (entry) =>
      entry.name !== 'dashboard' &&
      entry.roles.length > 0 &&
      hasAnyRole(roles, entry.roles) &&
      (!entry.requires || (entry.requires === 'directsProgramme' && directs)) &&
      available.has(entry.path),
  );
}

/** Loaded only while a demo is being prepared, the first minute of a demo installation. */
const DemoPreparingNotice = lazy(() => import('@/features/dashboard/components/demo-preparing-notice'));

/**
 * Administrators only, and it draws nothing before its own read has answered: its code comes
 * with that read, after the page has drawn, rather than with every dashboard's first screen.
 */
const LegalSettingsNotice = lazy(async () => ({
  default: (await import('@/features/dashboard/components/legal-settings-notice')).LegalSettingsNotice,
}));

const COUNTED_ROLES = ['learner', 'editor', 'expert'] as const;

/** The key numbers of each of the person's roles (SPEC §2), kept live by the socket. */
function KeyNumbersOfRoles({ counted, query }: { counted: boolean; query: ReturnType<typeof useDashboard> }) {
  const { t } = useTranslation('dashboard');
  if (!counted) return null;
  if (query.isError && !query.data) {
    return <RetryAlert error={query.error} retry={t('retry')} onRetry={() => void query.refetch()} sx={{ mb: 4 }} />;
  }
  const data = query.data;
  if (!data) return null;
  return (
    <Box sx={{ display: 'grid', gap: 4, mb: 4 }} data-testid="dashboard-numbers">
      {data.learner && <LearnerSection data={data.learner} />}
      {data.editor && <WorkerSection role="editor" data={data.editor} />}
      {data.expert && <WorkerSection role="expert" data={data.expert} />}
    </Box>
  );
}

export function DashboardPage() {
  const { t } = useTranslation(['dashboard', 'menu']);
  const { session } = useSession();
  const spaces = useSpaces();
  const counted = COUNTED_ROLES.some((role) => session?.roles.includes(role));
  const query = useDashboard(counted);
  const demo = useDemoState(counted);
  if (!session) return null;
  // The page is drawn once its numbers and whether the demo is being prepared are there (two
  // quick reads, together), so that nothing moves under the reader when they arrive; a failed
  // read still draws it, with its retry.
  if (counted && (query.isPending || demo.isPending)) return null;

  return (
    <Box sx={{ maxWidth: 1100 }}>
      <Typography variant="h2" component="p" sx={{ mb: 0.5 }}>
        {t('dashboard:greeting', { firstName: session.information.firstName })}
      </Typography>
      <Typography sx={{ color: 'text.secondary', mb: 3 }}>{t('dashboard:intro')}</Typography>
      {session.roles.includes('administrator') && (
        <Suspense fallback={null}>
          <LegalSettingsNotice />
        </Suspense>
      )}
      {counted && demo.data?.preparing && (
        <Suspense fallback={null}>
          <DemoPreparingNotice progress={demo.data.progress} />
        </Suspense>
      )}
      <KeyNumbersOfRoles counted={counted} query={query} />
      <Typography variant="h3" component="h2" sx={{ mb: 2 }}>
        {t('dashboard:spaces')}
      </Typography>
      <Box
        component="ul"
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
        }}
      >
        {spaces.map((entry) => {
          const Icon = MENU_ICONS[entry.icon];
          return (
            <Box component="li" key={entry.path}>
              <Card variant="outlined" sx={{ height: '100%', borderRadius: 3 }}>
                <CardActionArea component={RouterLink} to={entry.path} sx={{ height: '100%', alignItems: 'stretch' }}>
                  <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', height: '100%' }}>
                    <Box
                      sx={{
                        display: 'grid',
                        placeItems: 'center',
                        width: 48,
                        height: 48,
                        borderRadius: 2,
                        flexShrink: 0,
                        bgcolor: 'primary.main',
                        color: 'primary.contrastText',
                      }}
                    >
                      <Icon aria-hidden />
                    </Box>
                    <Box sx={{ flex: 1, minWidth: 0 }}>
                      <Typography variant="h3" component="h3">
                        {t(`menu:${entry.titleKey}`)}
                      </Typography>
                      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
                        {t(`dashboard:cards.${entry.name}`)}
                      </Typography>
                    </Box>
                    <ArrowForward sx={{ color: 'text.secondary', alignSelf: 'center' }} aria-hidden />
                  </CardContent>
                </CardActionArea>
              </Card>
            </Box>
          );
        })}
      </Box>
      {spaces.length === 0 && <Typography sx={{ color: 'text.secondary' }}>{t('dashboard:noSpaces')}</Typography>}
    </Box>
  );
}
