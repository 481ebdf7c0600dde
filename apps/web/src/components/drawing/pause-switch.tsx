import { useTranslation } from 'react-i18next';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { setPauseOnDrawings, usePauseOnDrawings } from '@/components/drawing/pause-setting';

/** The "pause on drawings" setting, beside every list of drawings. */
export function PauseOnDrawingsSwitch() {
  const { t } = useTranslation('drawing');
  const on = usePauseOnDrawings();
  return (
    <FormControlLabel
      control={<Switch checked={on} onChange={(e) => setPauseOnDrawings(e.target.checked)} data-testid="pause-on-drawings" />}
      label={t('pauseOnDrawings')}
      title={t('pauseOnDrawingsHint')}
    />
  );
}
