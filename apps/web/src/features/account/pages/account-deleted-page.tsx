import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import { currentLanguage } from '@/lib/i18n';
import { keptReceipt } from '@/features/account/erasure-receipt';

/**
 * `/account-deleted`: the receipt of the deletion just made — what was erased, what is kept and
 * why — with a copy to download (the same text as the one mailed).
 */
export function AccountDeletedPage() {
  const { t } = useTranslation('account');
  const receipt = useMemo(() => keptReceipt(), []);
  const lang = currentLanguage();

  const download = () => {
    if (!receipt) return;
    const lines = [
      t('receipt.title'),
      t('receipt.referenceLine', { id: receipt.receiptId }),
      t('receipt.dateLine', { date: `${new Date(receipt.deletedAt).toISOString()} (UTC)` }),
      '',
      t('receipt.erased'),
      ...receipt.erased.map((e) => `- ${t('receipt.line', { label: t(`receipt.items.${e.item}`), count: e.count })}`),
      '',
      t('receipt.kept'),
      ...receipt.kept.map(
        (k) =>
          `- ${t('receipt.keptLine', { label: t(`receipt.items.${k.item}`), count: k.count, reason: t(`receipt.reasons.${k.item}`) })}`,
      ),
    ];
    const url = URL.createObjectURL(new Blob([`${lines.join('\n')}\n`], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `sutura-${lang === 'fr' ? 'recu-suppression' : 'deletion-receipt'}-${receipt.receiptId.slice(0, 8)}.txt`;
    a.click();
    URL.revokeObjectURL(url);
  };

  return (
    <Box sx={{ maxWidth: 640, width: '100%', mx: 'auto', p: { xs: 2, sm: 3 } }}>
      <Typography variant="h2" component="h1" sx={{ mb: 2 }}>
        {t('receipt.title')}
      </Typography>
      {!receipt ? (
        <Alert severity="info">{t('receipt.missing')}</Alert>
      ) : (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} data-testid="erasure-receipt">
          <Typography sx={{ mb: 2 }}>{t('receipt.intro')}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {t('receipt.referenceLine', { id: receipt.receiptId })}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t('receipt.dateLine', {
              date: new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(receipt.deletedAt)),
            })}
          </Typography>
          <Typography variant="h3" component="h2" sx={{ mb: 1 }}>
            {t('receipt.erased')}
          </Typography>
          <Box component="ul" sx={{ mt: 0, mb: 2, pl: 3 }} data-testid="erasure-erased">
            {receipt.erased.map((e) => (
              <li key={e.item}>{t('receipt.line', { label: t(`receipt.items.${e.item}`), count: e.count })}</li>
            ))}
          </Box>
          <Typography variant="h3" component="h2" sx={{ mb: 1 }}>
            {t('receipt.kept')}
          </Typography>
          <Box component="ul" sx={{ mt: 0, mb: 2, pl: 3 }} data-testid="erasure-kept">
            {receipt.kept.map((k) => (
              <li key={k.item}>
                {t('receipt.keptLine', { label: t(`receipt.items.${k.item}`), count: k.count, reason: t(`receipt.reasons.${k.item}`) })}
              </li>
            ))}
          </Box>
          <Button variant="contained" startIcon={<DownloadOutlined aria-hidden />} onClick={download} data-testid="erasure-download">
            {t('receipt.download')}
          </Button>
        </Paper>
      )}
      <Button component={RouterLink} to="/auth/login" sx={{ mt: 2 }}>
        {t('receipt.toSignIn')}
      </Button>
    </Box>
  );
}
