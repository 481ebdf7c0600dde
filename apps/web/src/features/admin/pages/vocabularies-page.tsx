import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import ExpandLessOutlined from '@mui/icons-material/ExpandLessOutlined';
import ExpandMoreOutlined from '@mui/icons-material/ExpandMoreOutlined';
import type { AdminOrgan, AdminSurgery, VocabularyKind } from '@sutura/domain/admin-catalog';
import { mayAdminWrite } from '@sutura/domain/roles';
import { ORGAN_ICONS, type OrganIcon as OrganIconName } from '@sutura/domain/vocabularies';
import { ApiRequestError, errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useSingleFlight } from '@/lib/single-flight';
import { useToast } from '@/lib/toast';
import { OrganLabel } from '@/components/video/organ-label';
import { useAdminVocabularies, useVocabularyChange, type TermFields, type VocabularyChange } from '@/features/admin/api/vocabulary-api';
import { VocabularyList, type Term, type VocabularyListActions } from '@/features/admin/components/vocabulary-list';
import { RetryAlert } from '@/components/retry-alert';

const TABS = ['organs', 'surgeries', 'specialties'] as const;
type TabKind = (typeof TABS)[number];
const isOrganIcon = (icon: string | undefined): icon is OrganIconName => (ORGAN_ICONS as readonly string[]).includes(icon ?? '');

/**
 * `/admin/vocabularies`: the organs, surgeries (with their ordered steps) and specialties the
 * pickers offer. Administrators add, rename, reorder, retire, restore and delete; copil reads.
 */
export function VocabulariesPage() {
  const { t } = useTranslation(['vocabularies', 'errors']);
  const { session } = useSession();
  const canWrite = mayAdminWrite(session?.roles ?? []);
  const toast = useToast();
  const list = useAdminVocabularies();
  const change = useVocabularyChange();
  const [tab, setTab] = useState<TabKind>('organs');
  const [open, setOpen] = useState<string | null>(null);
  const lang = currentLanguage();

  // One change at a time for the whole page: a second click while one runs is dropped.
  const flight = useSingleFlight(async (request: VocabularyChange, rethrow: boolean) => {
    try {
      await change.mutateAsync(request);
      toast('success', t(`done.${request.type}`));
    } catch (error) {
      if (rethrow) throw error;
      toast('error', errorText(error));
      if (error instanceof ApiRequestError && error.code === 'VOCABULARY_ORDER_STALE') await list.refetch();
    }
  });
  const busy = flight.pending;
  // The dialogs show a refused name on its field: their changes give the error back.
  const withError = (request: VocabularyChange) => flight.run(request, true);

  const actionsFor = (kind: VocabularyKind, surgeryId?: string): VocabularyListActions => ({
    create: (fields: TermFields) =>
      withError(
        surgeryId ? { type: 'createStep', surgeryId, fields } : { type: 'create', kind: kind as Exclude<VocabularyKind, 'steps'>, fields },
      ),
    update: (id, fields) => withError({ type: 'update', kind, id, fields }),
    reorder: (ids) =>
      flight.run(
        surgeryId ? { type: 'reorderSteps', surgeryId, ids } : { type: 'reorder', kind: kind as Exclude<VocabularyKind, 'steps'>, ids },
        false,
      ),
    retire: (id) => flight.run({ type: 'retire', kind, id }, false),
    restore: (id) => flight.run({ type: 'restore', kind, id }, false),
    remove: (id) => flight.run({ type: 'delete', kind, id }, false),
  });

  if (list.isError) {
    return <RetryAlert error={list.error} retry={t('retry')} onRetry={() => void list.refetch()} />;
  }

  const organs: readonly AdminOrgan[] = list.data?.organs ?? [];
  const organOf = (id: string | null | undefined) => organs.find((o) => o.id === id);
  const surgeryExtra = (term: Term) => {
    const surgery = term as unknown as AdminSurgery;
    const organ = organOf(surgery.organId);
    const expanded = open === surgery.id;
    return (
      <>
        {organ && <OrganLabel organ={{ name: lang === 'fr' ? organ.nameFr : organ.nameEn, icon: organ.icon }} />}
        <Button
          size="small"
          onClick={() => setOpen(expanded ? null : surgery.id)}
          aria-expanded={expanded}
          aria-controls={`steps-${surgery.id}`}
          endIcon={expanded ? <ExpandLessOutlined aria-hidden /> : <ExpandMoreOutlined aria-hidden />}
          data-testid="surgery-steps-toggle"
        >
          {t('steps.toggle', { count: surgery.steps.length })}
        </Button>
      </>
    );
  };
  const surgerySteps = (term: Term) => {
    const surgery = term as unknown as AdminSurgery;
    return (
      <Collapse in={open === surgery.id} unmountOnExit>
        <Box id={`steps-${surgery.id}`} sx={{ pt: 1.5, pl: { xs: 0, sm: 4 } }}>
          <VocabularyList
            kind="steps"
            terms={surgery.steps}
            organs={organs}
            canWrite={canWrite}
            busy={busy}
            actions={actionsFor('steps', surgery.id)}
            label={t('steps.label', { name: lang === 'fr' ? surgery.nameFr : surgery.nameEn })}
            testId="vocabulary-steps"
          />
        </Box>
      </Collapse>
    );
  };

  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto', width: '100%' }}>
      {!canWrite && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="vocabularies-read-only">
          {t('readOnly')}
        </Alert>
      )}
      <Tabs
        value={tab}
        onChange={(_, value: TabKind) => setTab(value)}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={t('tabs.label')}
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
      >
        {TABS.map((kind) => (
          <Tab
            key={kind}
            value={kind}
            label={t(`tabs.${kind}`)}
            id={`vocabulary-tab-${kind}`}
            aria-controls="vocabulary-panel"
            data-testid={`vocabulary-tab-${kind}`}
          />
        ))}
      </Tabs>
      <Box id="vocabulary-panel" role="tabpanel" aria-labelledby={`vocabulary-tab-${tab}`}>
        {!list.data ? (
          <Box role="status" aria-label={t('loading')} sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
            {Array.from({ length: 5 }, (_, i) => (
              <Skeleton key={i} variant="rounded" height={72} />
            ))}
          </Box>
        ) : tab === 'organs' ? (
          <VocabularyList
            kind="organs"
            terms={list.data.organs}
            organs={organs}
            canWrite={canWrite}
            busy={busy}
            actions={actionsFor('organs')}
            label={t('tabs.organs')}
            testId="vocabulary-organs"
            extra={(term) => (isOrganIcon(term.icon) ? <OrganLabel organ={{ name: t(`icons.${term.icon}`), icon: term.icon }} /> : null)}
          />
        ) : tab === 'surgeries' ? (
          <VocabularyList
            kind="surgeries"
            terms={list.data.surgeries}
            organs={organs}
            canWrite={canWrite}
            busy={busy}
            actions={actionsFor('surgeries')}
            label={t('tabs.surgeries')}
            testId="vocabulary-surgeries"
            extra={surgeryExtra}
            below={surgerySteps}
          />
        ) : (
          <VocabularyList
            kind="specialties"
            terms={list.data.specialties}
            organs={organs}
            canWrite={canWrite}
            busy={busy}
            actions={actionsFor('specialties')}
            label={t('tabs.specialties')}
            testId="vocabulary-specialties"
          />
        )}
      </Box>
    </Box>
  );
}
