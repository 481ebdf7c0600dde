import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import { mayAdminWrite } from '@sutura/domain/roles';
import { useSession } from '@/lib/session';

/** Tells copil members that the administration is theirs to read only. */
export function ReadOnlyNotice() {
  const { t } = useTranslation(['admin']);
  const { session } = useSession();
  if (mayAdminWrite(session?.roles ?? [])) return null;
  return (
    <Alert severity="info" sx={{ mb: 2 }} data-testid="admin-read-only">
      {t('admin:dashboard.readOnly')}
    </Alert>
  );
}
