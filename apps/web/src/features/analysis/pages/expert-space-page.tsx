import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { ANALYSIS_SOCKET_EVENTS, EXPERT_LISTS, type ExpertList } from '@sutura/domain/analysis';
import { SOCKET_EVENTS } from '@sutura/domain/notifications';
import { errorText } from '@/lib/http';
import { useSocketEvent } from '@/lib/realtime';
import { useToast } from '@/lib/toast';
import { EXPERT_PAGE_SIZE, expertKeys, useClaimVideo, useExpertList } from '@/features/analysis/api/expert-lists';
import { ExpertVideoCard } from '@/components/case/pool-card';
import { CardGrid, cardGridSx, ListPagination, ListStates, pageCount } from '@/components/list-states';

const isList = (value: string | null): value is ExpertList => (EXPERT_LISTS as readonly string[]).includes(value ?? '');

/** `/expert`: the pool of prepared videos, what I hold with the hours left, what I analysed. */
export function ExpertSpacePage() {
  const { t } = useTranslation('expert');
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search, setSearch] = useSearchParams();
  const tabParam = search.get('tab');
  const list: ExpertList = isList(tabParam) ? tabParam : 'pool';
  const page = Math.max(1, Number(search.get('page')) || 1);
  const videos = useExpertList(list, page);
  const claim = useClaimVideo();
  const [claimingId, setClaimingId] = useState<string | null>(null);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: expertKeys.all });
  useSocketEvent(ANALYSIS_SOCKET_EVENTS.poolChanged, refresh);
  useSocketEvent(SOCKET_EVENTS.notificationReceived, refresh);

  const select = (next: ExpertList) => setSearch(next === 'pool' ? {} : { tab: next });
  const claimVideo = (videoId: string) => {
    if (claim.isPending) return;
    setClaimingId(videoId);
    claim.mutate(videoId, {
      onSuccess: () => void navigate(`/expert/${videoId}`),
      onError: (error) => toast('error', errorText(error)),
      onSettled: () => setClaimingId(null),
    });
  };

  const pages = pageCount(videos.data?.total, EXPERT_PAGE_SIZE);

  return (
    <Box sx={{ maxWidth: 1400, mx: 'auto', width: '100%' }}>
      <Tabs
        value={list}
        onChange={(_, next: ExpertList) => select(next)}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={t('tabs.label')}
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
      >
        {EXPERT_LISTS.map((name) => (
          <Tab
            key={name}
            value={name}
            label={t(`tabs.${name}`)}
            id={`expert-tab-${name}`}
            aria-controls="expert-tab-panel"
            data-testid={`expert-tab-${name}`}
          />
        ))}
      </Tabs>
      <Box id="expert-tab-panel" role="tabpanel" aria-labelledby={`expert-tab-${list}`}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t(`intro.${list}`)}
        </Typography>
        <ListStates
          query={videos}
          retry={t('retry')}
          loading={{ label: t('loading'), count: 4, height: 320, sx: cardGridSx }}
          empty={
            <Paper variant="outlined" data-testid="expert-list-empty" sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center', borderRadius: 3 }}>
              <Typography>{t(`empty.${list}`)}</Typography>
            </Paper>
          }
        >
          {(result) => (
            <>
              <Typography role="status" variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
                {t('count', { count: result.total })}
              </Typography>
              <CardGrid items={result.data} busy={videos.isFetching}>
                {(video) => (
                  <ExpertVideoCard
                    video={video}
                    list={list}
                    claiming={claim.isPending && claimingId === video.id}
                    disabled={claim.isPending}
                    onClaim={() => claimVideo(video.id)}
                  />
                )}
              </CardGrid>
              <ListPagination
                pages={pages}
                page={page}
                onChange={(next) => setSearch({ ...(list === 'pool' ? {} : { tab: list }), page: String(next) })}
                mt={3}
              />
            </>
          )}
        </ListStates>
      </Box>
    </Box>
  );
}
