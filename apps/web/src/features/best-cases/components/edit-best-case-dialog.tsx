import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import type { AdminBestCase } from '@sutura/domain/best-cases';
import { applyApiFieldErrors } from '@/components/form-field';
import { PendingButton } from '@/components/pending-button';
import { ApiRequestError, errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { useUpdateBestCase } from '@/features/best-cases/api/best-cases';
import {
  BestCaseFields,
  bestCaseBodyOf,
  bestCaseResolver,
  type BestCaseFormValues,
} from '@/features/best-cases/components/best-case-fields';

function EditForm({ bestCase, onClose }: { bestCase: AdminBestCase; onClose(): void }) {
  const { t } = useTranslation('best-cases');
  const toast = useToast();
  const update = useUpdateBestCase();
  const { control, handleSubmit, setError, setValue } = useForm<BestCaseFormValues>({
    resolver: bestCaseResolver<BestCaseFormValues>(),
    defaultValues: {
      titleFr: bestCase.titleFr,
      titleEn: bestCase.titleEn,
      descriptionFr: bestCase.descriptionFr,
      descriptionEn: bestCase.descriptionEn,
      surgeryId: bestCase.surgery?.id ?? '',
      organId: bestCase.organ?.id ?? '',
    },
  });
  const onSubmit = handleSubmit(async (values) => {
    if (update.isPending) return;
    try {
      await update.mutateAsync({ id: bestCase.id, body: bestCaseBodyOf(values) });
    } catch (error) {
      if (error instanceof ApiRequestError && applyApiFieldErrors(error, setError)) return;
      toast('error', errorText(error));
      return;
    }
    toast('success', t('admin.saved'));
    onClose();
  });
  return (
    <Box component="form" noValidate onSubmit={(e) => void onSubmit(e)} sx={{ display: 'contents' }}>
      <DialogContent dividers>
        <BestCaseFields control={control} setValue={setValue} />
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} disabled={update.isPending}>
          {t('admin.cancel')}
        </Button>
        <PendingButton
          type="submit"
          variant="contained"
          pending={update.isPending}
          icon={<SaveOutlined aria-hidden />}
          data-testid="best-case-save"
        >
          {t('admin.save')}
        </PendingButton>
      </DialogActions>
    </Box>
  );
}

/** The texts (both languages), surgery and organ of a best case. */
export function EditBestCaseDialog({ bestCase, onClose }: { bestCase: AdminBestCase | null; onClose(): void }) {
  const { t } = useTranslation('best-cases');
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <Dialog open={!!bestCase} onClose={onClose} fullScreen={fullScreen} maxWidth="md" fullWidth aria-labelledby="edit-best-case-title">
      <DialogTitle id="edit-best-case-title">{t('admin.editTitle')}</DialogTitle>
      {bestCase && <EditForm key={bestCase.id} bestCase={bestCase} onClose={onClose} />}
    </Dialog>
  );
}
