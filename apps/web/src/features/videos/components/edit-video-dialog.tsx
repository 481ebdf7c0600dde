import { useTranslation } from 'react-i18next';
import { useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { CASE_TEXT_MAX, updateVideoBody, type VideoDetail } from '@sutura/domain/videos';
import { applyApiFieldErrors, TextFieldControl } from '@/components/form-field';
import { ApiRequestError, errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { emptyValues, toBodyInput, type AddVideoFormValues } from '@/features/videos/add/add-video-values';
import { PatientFields, SurgeryFields } from '@/features/videos/add/case-fields';
import { NasaTlxFields } from '@/features/videos/add/nasa-tlx-fields';
import { useUpdateVideo, type VideoChanges } from '@/features/videos/api/video-actions';
import { useOrgans, useSurgeries, type VocabularyUse } from '@/lib/vocabularies';

/** The saved case in the add form's values, so the same fields edit it. */
export function editValues(video: VideoDetail): AddVideoFormValues {
  const f = video.fields;
  const empty = emptyValues();
  const yesNo = (v: boolean | undefined) => (v === undefined ? '' : v ? 'yes' : 'no');
  return {
    ...empty,
    kind: video.kind,
    surgeryId: f.surgeryId ?? '',
    organId: f.organId ?? '',
    keyStepIds: f.keyStepIds ?? [],
    equipmentBrand: f.equipmentBrand ?? '',
    equipmentUsed: f.equipmentUsed ?? '',
    ageRange: f.ageRange ?? '',
    patientSex: f.patientSex ?? '',
    bmi: f.bmi ?? '',
    complication: yesNo(f.complication),
    surgicalHistory: f.surgicalHistory ?? '',
    radiationHistory: yesNo(f.radiationHistory),
    medicalBackground: f.medicalBackground ?? [],
    mainHand: f.mainHand ?? '',
    surgeryDuration: f.surgeryDuration === undefined ? '' : String(f.surgeryDuration),
    operatedOn: f.operatedOn ?? '',
    messageToProctor: f.messageToProctor ?? '',
    nasaTlx: f.nasaTlx ?? empty.nasaTlx,
  };
}

/**
 * The case's own surgery, organ and key steps stay offered even if an administrator retired them
 * since (the server keeps them when unchanged); no other retired term is.
 */
export function keptTerms(video: VideoDetail): VocabularyUse {
  const f = video.fields;
  return { keep: [f.surgeryId, f.organId, ...(f.keyStepIds ?? [])] };
}

/** The fields as PUT /videos/{id} reads them (the kind of a case never changes). */
function changesInput(values: AddVideoFormValues) {
  const { kind: _kind, ...fields } = toBodyInput(values);
  return fields;
}

const validateChanges = zodResolver(updateVideoBody);

/** The shared `updateVideoBody` decides what is valid; the form keeps its own values. */
const editResolver: Resolver<AddVideoFormValues> = async (values, context, options) => {
  const result = await validateChanges(changesInput(values) as never, context, options as never);
  const errors = result.errors as FieldErrors<AddVideoFormValues>;
  return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
};

function EditVideoForm({ video, onClose }: { video: VideoDetail; onClose(): void }) {
  const { t } = useTranslation(['videos', 'upload']);
  const toast = useToast();
  const update = useUpdateVideo();
  const { control, handleSubmit, setError, setValue } = useForm<AddVideoFormValues>({
    resolver: editResolver,
    defaultValues: editValues(video),
  });
  const surgeryId = useWatch({ control, name: 'surgeryId' });

  const onSubmit = handleSubmit(async (values) => {
    // An emptied optional text is sent as '', so that the server clears it.
    const changes: VideoChanges = { ...updateVideoBody.parse(changesInput(values)), surgicalHistory: values.surgicalHistory };
    try {
      await update.mutateAsync({ id: video.id, changes });
    } catch (error) {
      if (error instanceof ApiRequestError && applyApiFieldErrors(error, setError)) return;
      toast('error', errorText(error));
      return;
    }
    toast('success', t('videos:edit.saved'));
    onClose();
  });

  const section = (title: string) => (
    <Typography variant="h3" component="h3" sx={{ mt: 3, mb: 0.5, '&:first-of-type': { mt: 0 } }}>
      {title}
    </Typography>
  );

  return (
    <Box component="form" noValidate onSubmit={(e) => void onSubmit(e)} sx={{ display: 'contents' }}>
      <DialogContent dividers>
        {section(t('upload:sections.surgery'))}
        <SurgeryFields control={control} setValue={setValue} surgeryId={surgeryId} vocabulary={keptTerms(video)} />
        {section(t('upload:sections.patient'))}
        <PatientFields control={control} />
        {section(t('upload:sections.tlx'))}
        <NasaTlxFields control={control} />
        {section(t('upload:sections.proctor'))}
        <TextFieldControl
          control={control}
          name="messageToProctor"
          label={t('upload:fields.messageToProctor')}
          required
          multiline
          minRows={3}
          maxChars={CASE_TEXT_MAX.messageToProctor}
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} disabled={update.isPending}>
          {t('videos:edit.cancel')}
        </Button>
        <Button
          type="submit"
          variant="contained"
          disabled={update.isPending}
          startIcon={update.isPending ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
          data-testid="save-video"
        >
          {t('videos:edit.save')}
        </Button>
      </DialogActions>
    </Box>
  );
}

/** Edits the case data while the case has not been sent (PUT /videos/{id}), with the add page's fields. */
export function EditVideoDialog({ video, open, onClose }: { video: VideoDetail; open: boolean; onClose(): void }) {
  const { t } = useTranslation('videos');
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  // The selects need their options before they can show the saved values.
  const organs = useOrgans(keptTerms(video));
  const surgeries = useSurgeries(keptTerms(video));
  const ready = organs.isSuccess && surgeries.isSuccess;
  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} maxWidth="md" fullWidth aria-labelledby="edit-video-title">
      <DialogTitle id="edit-video-title">{t('edit.title')}</DialogTitle>
      {!ready ? (
        <DialogContent sx={{ display: 'grid', placeItems: 'center', minHeight: 200 }}>
          <CircularProgress aria-label={t('edit.loading')} />
        </DialogContent>
      ) : (
        open && <EditVideoForm video={video} onClose={onClose} />
      )}
    </Dialog>
  );
}
