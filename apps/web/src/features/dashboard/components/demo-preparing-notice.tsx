import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import LinearProgress from '@mui/material/LinearProgress';
import { api } from '@/lib/http';

/** While the demo is being made the server is asked this often how far it is. */
const POLL_MS = 3000;

interface DemoState {
  preparing: boolean;
  progress: number;
}

/**
 * At the very first start of a demo installation its cases are made in the minute after the
 * server answers (docs/dashboard.md): said here, with how far it is, instead of empty numbers.
 * It goes away by itself once the demo is ready, and every list is then read again.
 */
export function DemoPreparingNotice() {
  const { t } = useTranslation('dashboard');
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: ['health', 'demo'],
    queryFn: async () => (await api<{ demo?: DemoState }>('GET', '/health')).demo ?? { preparing: false, progress: 100 },
    refetchInterval: (query) => (query.state.data?.preparing ? POLL_MS : false),
    staleTime: Infinity,
  });
  const wasPreparing = useRef(false);
  const preparing = data?.preparing ?? false;
  useEffect(() => {
    // The demo just became ready: the numbers and lists read meanwhile were empty.
    if (wasPreparing.current && !preparing) void queryClient.invalidateQueries();
    wasPreparing.current = preparing;
  }, [preparing, queryClient]);
  if (!data?.preparing) return null;
  return (
    <Alert severity="info" data-testid="demo-preparing" sx={{ mb: 3 }}>
      <AlertTitle>{t('demoPreparing.title')}</AlertTitle>
      {t('demoPreparing.text')}
      <LinearProgress
        variant="determinate"
        value={data.progress}
        aria-label={t('demoPreparing.progress', { progress: data.progress })}
        aria-valuetext={t('demoPreparing.progress', { progress: data.progress })}
        sx={{ mt: 1.5, borderRadius: 1 }}
        data-testid="demo-preparing-progress"
      />
    </Alert>
  );
}
