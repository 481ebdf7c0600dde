import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import AddOutlined from '@mui/icons-material/AddOutlined';
import VideoLibraryOutlined from '@mui/icons-material/VideoLibraryOutlined';
import { hasAnyRole } from '@sutura/domain/roles';
import { VIDEO_TABS, type VideoTab } from '@sutura/domain/videos';
import { useSession } from '@/lib/session';
import { useVideoList, VIDEO_PAGE_SIZE } from '@/features/videos/api/video-list';
import { VideoCard } from '@/features/videos/components/video-card';
import { VideoFilters } from '@/features/videos/components/video-filters';
import { activeFilterCount, useVideoListParams } from '@/features/videos/hooks/use-video-list-params';
import { useVideoRealtime } from '@/features/videos/hooks/use-video-realtime';
import { CardGrid, cardGridSx, ListPagination, ListStates, pageCount } from '@/components/list-states';
import { visuallyHidden } from '@/components/video/visually-hidden';

/** `/videos`: the person's cases by stage, and the ones colleagues share with them. */
export function VideoListPage() {
  const { t } = useTranslation('videos');
  const { session } = useSession();
  const learner = hasAnyRole(session?.roles ?? [], ['learner']);
  const { params: asked, update, clearFilters } = useVideoListParams();
  // Only a learner adds cases: editors and experts have only the videos colleagues share with them.
  const tabs: readonly VideoTab[] = learner ? VIDEO_TABS : ['shared'];
  const params = tabs.includes(asked.tab) ? asked : { ...asked, tab: 'shared' as const };
  const list = useVideoList(params);
  useVideoRealtime();

  const pages = pageCount(list.data?.total, VIDEO_PAGE_SIZE);
  const filtered = activeFilterCount(params) > 0;

  return (
    <Box sx={{ maxWidth: 1400, mx: 'auto', width: '100%' }}>
      {learner && (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
          <Button
            component={RouterLink}
            to="/videos/add"
            variant="contained"
            startIcon={<AddOutlined aria-hidden />}
            data-testid="add-video"
          >
            {t('list.add')}
          </Button>
        </Box>
      )}
      <Tabs
        value={params.tab}
        onChange={(_, tab: VideoTab) => update({ tab })}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={t('tabs.label')}
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
      >
        {tabs.map((tab) => (
          <Tab
            key={tab}
            value={tab}
            label={t(`tabs.${tab}`)}
            data-testid={`video-tab-${tab}`}
            id={`video-tab-${tab}`}
            aria-controls="video-tab-panel"
          />
        ))}
      </Tabs>
      <Box id="video-tab-panel" role="tabpanel" aria-labelledby={`video-tab-${params.tab}`}>
        <Typography variant="h2" component="h2" sx={visuallyHidden}>
          {t(`tabs.${params.tab}`)}
        </Typography>
        <Box sx={{ mb: 3 }}>
          <VideoFilters params={params} onChange={update} onClear={clearFilters} />
        </Box>
        <ListStates
          query={list}
          retry={t('list.retry')}
          loading={{ label: t('list.loading'), count: 6, height: 300, sx: cardGridSx }}
          empty={<EmptyList tab={params.tab} learner={learner} filtered={filtered} onClear={clearFilters} />}
        >
          {(result) => (
            <>
              <Typography role="status" variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
                {t('list.count', { count: result.total })}
              </Typography>
              {/* Another page or filter of this tab is on its way: the shown cards are the previous ones. */}
              {list.isPlaceholderData ? (
                <LinearProgress aria-label={t('list.loading')} data-testid="video-list-updating" sx={{ mb: 1 }} />
              ) : (
                <Box sx={{ height: 4, mb: 1 }} />
              )}
              <CardGrid items={result.data} busy={list.isFetching} dimmed={list.isPlaceholderData}>
                {(video) => <VideoCard video={video} />}
              </CardGrid>
              <ListPagination
                pages={pages}
                page={params.page}
                onChange={(page) => update({ page })}
                labels="videos:list.pagination"
                mt={3}
              />
            </>
          )}
        </ListStates>
      </Box>
    </Box>
  );
}

/** What to do when a tab is empty: each tab says how cases get there. */
function EmptyList({ tab, learner, filtered, onClear }: { tab: VideoTab; learner: boolean; filtered: boolean; onClear(): void }) {
  const { t } = useTranslation('videos');
  const text = filtered ? t('list.empty.filtered') : t(`list.empty.${tab}`);
  return (
    <Paper
      variant="outlined"
      data-testid="video-list-empty"
      sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center', display: 'grid', gap: 2, justifyItems: 'center', borderRadius: 3 }}
    >
      <VideoLibraryOutlined sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />
      <Typography sx={{ maxWidth: 520 }}>{text}</Typography>
      {filtered ? (
        <Button variant="outlined" onClick={onClear}>
          {t('filters.clear')}
        </Button>
      ) : (
        tab === 'mine' &&
        learner && (
          <Button component={RouterLink} to="/videos/add" variant="contained" startIcon={<AddOutlined aria-hidden />}>
            {t('list.addFirst')}
          </Button>
        )
      )}
    </Paper>
  );
}
