import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import {
  organBody,
  specialtyBody,
  stepBody,
  surgeryBody,
  VOCABULARY_NAME_MAX,
  type AdminOrgan,
  type VocabularyKind,
} from '@sutura/domain/admin-catalog';
import { isErrorCode } from '@/lib/error-codes';
import { ORGAN_ICONS, type OrganIcon as OrganIconName } from '@sutura/domain/vocabularies';
import { ApiRequestError, errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSingleFlight } from '@/lib/single-flight';
import { PendingButton } from '@/components/pending-button';
import { OrganIcon } from '@/components/video/organ-icons';
import type { TermFields } from '@/features/admin/api/vocabulary-api';

const SCHEMAS = { organs: organBody, surgeries: surgeryBody, steps: stepBody, specialties: specialtyBody } as const;
type Field = 'nameFr' | 'nameEn' | 'icon' | 'organId';

/**
 * Adds a term or renames one: both names (trimmed, required, unique in the list whatever the
 * case — the server says so on the field), an organ's icon, a surgery's organ.
 */
export function VocabularyTermDialog({
  kind,
  initial,
  organs,
  onSubmit,
  onClose,
}: {
  kind: VocabularyKind;
  /** The term being renamed; a new one otherwise. */
  initial?: TermFields;
  /** The organs a surgery may point at. */
  organs: readonly AdminOrgan[];
  onSubmit(fields: TermFields): Promise<void>;
  onClose(): void;
}) {
  const { t } = useTranslation(['vocabularies', 'errors']);
  const [fields, setFields] = useState<TermFields>(
    initial ?? {
      nameFr: '',
      nameEn: '',
      ...(kind === 'organs' ? { icon: ORGAN_ICONS[0] } : {}),
      ...(kind === 'surgeries' ? { organId: null } : {}),
    },
  );
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const lang = currentLanguage();
  const organName = (o: AdminOrgan) => (lang === 'fr' ? o.nameFr : o.nameEn);

  const submit = useSingleFlight(async () => {
    setFailure(null);
    const parsed = SCHEMAS[kind].safeParse(fields);
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const path = String(issue.path[0]) as Field;
        found[path] ??= isErrorCode(issue.message) ? t(`errors:${issue.message}`) : t('errors:INVALID_VALUE');
      }
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      await onSubmit(parsed.data as TermFields);
    } catch (error) {
      if (error instanceof ApiRequestError && error.details.length) {
        const found: Partial<Record<Field, string>> = {};
        for (const d of error.details) found[d.path as Field] = t(`errors:${d.code}`);
        setErrors(found);
      } else setFailure(errorText(error));
    }
  });

  const onFormSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit.run();
  };
  const set = (key: keyof TermFields, value: string | null) => setFields((f) => ({ ...f, [key]: value }));
  const title = t(`dialog.${initial ? 'edit' : 'add'}.${kind}`);

  return (
    <Dialog open onClose={() => !submit.pending && onClose()} fullWidth maxWidth="sm" aria-labelledby="vocabulary-dialog-title">
      <form onSubmit={onFormSubmit} noValidate>
        <DialogTitle id="vocabulary-dialog-title">{title}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
          {failure && <Alert severity="error">{failure}</Alert>}
          <TextField
            label={t('dialog.nameFr')}
            value={fields.nameFr}
            onChange={(e) => set('nameFr', e.target.value)}
            error={Boolean(errors.nameFr)}
            helperText={errors.nameFr}
            required
            autoFocus
            slotProps={{ htmlInput: { lang: 'fr', maxLength: VOCABULARY_NAME_MAX + 50, 'data-testid': 'vocabulary-name-fr' } }}
          />
          <TextField
            label={t('dialog.nameEn')}
            value={fields.nameEn}
            onChange={(e) => set('nameEn', e.target.value)}
            error={Boolean(errors.nameEn)}
            helperText={errors.nameEn}
            required
            slotProps={{ htmlInput: { lang: 'en', maxLength: VOCABULARY_NAME_MAX + 50, 'data-testid': 'vocabulary-name-en' } }}
          />
          {kind === 'organs' && (
            <div>
              <Typography id="vocabulary-icon-label" variant="body2" sx={{ mb: 1, color: 'text.secondary' }}>
                {t('dialog.icon')}
              </Typography>
              <ToggleButtonGroup
                exclusive
                value={fields.icon}
                onChange={(_, icon: OrganIconName | null) => icon && set('icon', icon)}
                aria-labelledby="vocabulary-icon-label"
                sx={{ flexWrap: 'wrap' }}
              >
                {ORGAN_ICONS.map((icon) => (
                  <ToggleButton
                    key={icon}
                    value={icon}
                    aria-label={t(`icons.${icon}`)}
                    title={t(`icons.${icon}`)}
                    data-testid={`vocabulary-icon-${icon}`}
                  >
                    <OrganIcon icon={icon} />
                  </ToggleButton>
                ))}
              </ToggleButtonGroup>
            </div>
          )}
          {kind === 'surgeries' && (
            <TextField
              select
              label={t('dialog.organ')}
              value={fields.organId ?? ''}
              onChange={(e) => set('organId', e.target.value || null)}
              error={Boolean(errors.organId)}
              helperText={errors.organId}
            >
              <MenuItem value="">{t('dialog.noOrgan')}</MenuItem>
              {organs
                .filter((o) => !o.retiredAt || o.id === initial?.organId)
                .map((o) => (
                  <MenuItem key={o.id} value={o.id}>
                    {organName(o)}
                  </MenuItem>
                ))}
            </TextField>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={submit.pending}>
            {t('dialog.cancel')}
          </Button>
          <PendingButton
            type="submit"
            variant="contained"
            pending={submit.pending}
            icon={<SaveOutlined aria-hidden />}
            data-testid="vocabulary-save"
          >
            {t('dialog.save')}
          </PendingButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}
