import { useTranslation } from 'react-i18next';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { AGREEMENT_ITEMS, type AgreementItem } from '@sutura/domain/agreement';
import { useItemLabel } from './use-item-label';

/** Which rating the per-expert list and the Bland–Altman plot show. */
export function AgreementItemSelect({ value, onChange }: { value: AgreementItem; onChange: (item: AgreementItem) => void }) {
  const { t } = useTranslation('calibration');
  const label = useItemLabel();
  return (
    <TextField
      select
      size="small"
      label={t('item')}
      value={value}
      onChange={(e) => onChange(e.target.value as AgreementItem)}
      slotProps={{ htmlInput: { 'data-testid': 'agreement-item' } as object }}
      sx={{ maxWidth: 320, width: '100%' }}
    >
      {AGREEMENT_ITEMS.map((item) => (
        <MenuItem key={item} value={item}>
          {label(item)}
        </MenuItem>
      ))}
    </TextField>
  );
}
