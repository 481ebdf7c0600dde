import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { VideoDetail } from '@sutura/domain/videos';
import { formatDay } from '@/components/video/format';

/** A case's duration in minutes, as "2 h 15 min". */
function useMinutes() {
  const { t } = useTranslation('videos');
  return (minutes: number) => {
    const hours = Math.floor(minutes / 60);
    const rest = minutes % 60;
    return hours ? t('units.hoursMinutes', { hours, minutes: rest }) : t('units.minutes', { count: rest });
  };
}

/** The "global" tab: every field of the case with a readable label, the key steps and the message to the proctor. */
export function CaseData({ video }: { video: Pick<VideoDetail, 'surgery' | 'organ' | 'keySteps' | 'fields'> }) {
  // Field names and choices read as on the add page.
  const { t, i18n } = useTranslation(['videos', 'upload']);
  const minutes = useMinutes();
  const f = video.fields;
  const none = t('videos:fields.none');
  const yesNo = (value: boolean | undefined) => (value === undefined ? none : t(value ? 'upload:yes' : 'upload:no'));

  const rows: { key: string; label: string; value: ReactNode }[] = [
    { key: 'surgery', label: t('upload:fields.surgery'), value: video.surgery?.name ?? none },
    { key: 'organ', label: t('upload:fields.organ'), value: video.organ?.name ?? none },
    { key: 'equipmentBrand', label: t('upload:fields.equipmentBrand'), value: f.equipmentBrand ?? none },
    { key: 'equipmentUsed', label: t('upload:fields.equipmentUsed'), value: f.equipmentUsed ?? none },
    { key: 'operatedOn', label: t('upload:fields.operatedOn'), value: f.operatedOn ? formatDay(f.operatedOn, i18n.language) : none },
    { key: 'surgeryDuration', label: t('upload:fields.surgeryDuration'), value: f.surgeryDuration ? minutes(f.surgeryDuration) : none },
    { key: 'mainHand', label: t('upload:fields.mainHand'), value: f.mainHand ? t(`upload:mainHands.${f.mainHand}`) : none },
    { key: 'ageRange', label: t('upload:fields.ageRange'), value: f.ageRange ? t(`upload:ageRanges.${f.ageRange}`) : none },
    { key: 'patientSex', label: t('upload:fields.patientSex'), value: f.patientSex ? t(`upload:patientSexes.${f.patientSex}`) : none },
    { key: 'bmi', label: t('upload:fields.bmi'), value: f.bmi ? t(`upload:bmiClasses.${f.bmi}`) : none },
    { key: 'complication', label: t('upload:fields.complication'), value: yesNo(f.complication) },
    { key: 'radiationHistory', label: t('upload:fields.radiationHistory'), value: yesNo(f.radiationHistory) },
    { key: 'surgicalHistory', label: t('upload:fields.surgicalHistory'), value: f.surgicalHistory || none },
    {
      key: 'medicalBackground',
      label: t('upload:fields.medicalBackground'),
      value: f.medicalBackground?.length ? f.medicalBackground.map((m) => t(`upload:medicalBackgrounds.${m}`)).join(', ') : none,
    },
  ];

  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Box component="section" aria-labelledby="case-key-steps">
        <Typography id="case-key-steps" variant="h3" component="h3" sx={{ mb: 1 }}>
          {t('upload:fields.keySteps')}
        </Typography>
        {video.keySteps.length ? (
          <Box component="ol" sx={{ m: 0, pl: 3 }}>
            {video.keySteps.map((step) => (
              <li key={step.id}>{step.name}</li>
            ))}
          </Box>
        ) : (
          <Typography sx={{ color: 'text.secondary' }}>{t('videos:fields.noKeySteps')}</Typography>
        )}
      </Box>
      <Box component="section" aria-labelledby="case-message">
        <Typography id="case-message" variant="h3" component="h3" sx={{ mb: 1 }}>
          {t('upload:fields.messageToProctor')}
        </Typography>
        <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{f.messageToProctor || none}</Typography>
      </Box>
      <Box component="section" aria-labelledby="case-fields">
        <Typography id="case-fields" variant="h3" component="h3" sx={{ mb: 1 }}>
          {t('videos:fields.caseData')}
        </Typography>
        <Box
          component="dl"
          sx={{
            m: 0,
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: 'minmax(180px, 40%) 1fr' },
            columnGap: 3,
            // One line per field: under both cells side by side, under the value alone when stacked.
            '& dt, & dd': { borderBottomStyle: 'solid', borderBottomColor: 'divider', borderBottomWidth: '1px' },
            '& dt': { fontWeight: 700, pt: { xs: 1, sm: 1.25 }, pb: { sm: 1.25 }, borderBottomWidth: { xs: 0, sm: '1px' } },
            '& dd': { m: 0, pb: 1.25, pt: { xs: 0, sm: 1.25 }, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' },
          }}
        >
          {rows.map((row) => (
            <Box key={row.key} sx={{ display: 'contents' }}>
              <Box component="dt">{row.label}</Box>
              <Box component="dd" data-field={row.key}>
                {row.value}
              </Box>
            </Box>
          ))}
        </Box>
      </Box>
    </Box>
  );
}
