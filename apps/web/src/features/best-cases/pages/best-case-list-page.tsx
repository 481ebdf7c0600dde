import { useTranslation } from 'react-i18next';
import { useUrlSearch } from '@/lib/url-search';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import EmojiEventsOutlined from '@mui/icons-material/EmojiEventsOutlined';
import { visuallyHidden } from '@/components/video/visually-hidden';
import { BEST_CASE_PAGE_SIZE, useBestCases } from '@/features/best-cases/api/best-cases';
import { BestCaseCard } from '@/features/best-cases/components/best-case-card';
import { BestCaseFilters } from '@/features/best-cases/components/best-case-filters';
import { CardGrid, cardGridSx, ListPagination, ListStates, pageCount } from '@/components/list-states';

/** `/best-cases`: the published best cases, by surgery and organ (the filters live in the address). */
export function BestCaseListPage() {
  const { t } = useTranslation(['best-cases', 'videos']);
  const [search, setSearch] = useUrlSearch();
  const surgeryId = search.get('surgery') ?? undefined;
  const organId = search.get('organ') ?? undefined;
  const page = Math.max(1, Number(search.get('page')) || 1);
  const list = useBestCases({ surgeryId, organId, page });
  const pages = pageCount(list.data?.total, BEST_CASE_PAGE_SIZE);
  const filtered = !!(surgeryId || organId);

  const update = (next: { surgeryId?: string | undefined; organId?: string | undefined; page?: number }) =>
    setSearch(
      (current) => {
        const params = new URLSearchParams();
        const s = 'surgeryId' in next ? next.surgeryId : current.get('surgery');
        const o = 'organId' in next ? next.organId : current.get('organ');
        if (s) params.set('surgery', s);
        if (o) params.set('organ', o);
        if (next.page && next.page > 1) params.set('page', String(next.page));
        return params;
      },
      { replace: true },
    );

  return (
    <Box sx={{ maxWidth: 1400, mx: 'auto', width: '100%', display: 'grid', gap: 3 }}>
      <Box>
        {/* The shell's header already says "Best cases": the section heading is for screen readers. */}
        <Typography variant="h2" component="h2" sx={visuallyHidden}>
          {t('list.title')}
        </Typography>
        <Typography sx={{ color: 'text.secondary' }}>{t('list.intro')}</Typography>
      </Box>
      <BestCaseFilters surgeryId={surgeryId} organId={organId} onChange={(f) => update({ surgeryId: f.surgeryId, organId: f.organId })} />
      <ListStates
        query={list}
        retry={t('list.retry')}
        loading={{ label: t('list.loading'), count: 6, height: 280, sx: cardGridSx }}
        empty={
          <Paper
            variant="outlined"
            data-testid="best-case-list-empty"
            sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center', display: 'grid', gap: 2, justifyItems: 'center', borderRadius: 3 }}
          >
            <EmojiEventsOutlined sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />
            <Typography sx={{ maxWidth: 520 }}>{t(filtered ? 'list.emptyFiltered' : 'list.empty')}</Typography>
            {filtered && (
              <Button variant="outlined" onClick={() => update({ surgeryId: undefined, organId: undefined })}>
                {t('filters.clear')}
              </Button>
            )}
          </Paper>
        }
      >
        {(result) => (
          <Box>
            <Typography role="status" variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
              {t('list.count', { count: result.total })}
            </Typography>
            <CardGrid items={result.data} busy={list.isFetching} dimmed={list.isPlaceholderData}>
              {(bestCase) => <BestCaseCard bestCase={bestCase} />}
            </CardGrid>
            <ListPagination pages={pages} page={page} onChange={(next) => update({ page: next })} labels="videos:list.pagination" mt={3} />
          </Box>
        )}
      </ListStates>
    </Box>
  );
}
