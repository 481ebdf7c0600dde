import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import AddOutlined from '@mui/icons-material/AddOutlined';
import { mayAdminWrite } from '@sutura/domain/roles';
import { errorText } from '@/lib/http';
import { useSession } from '@/lib/session';
import { ReadOnlyNotice } from '@/features/admin/components/read-only-notice';
import { useAdminProgrammes, useCreateProgramme } from '@/lib/programmes';
import { ProgrammeFacts } from '@/components/programmes/programme-facts';
import { ProgrammeForm } from '@/components/programmes/programme-form';

/** `/admin/programmes`: every training programme; administrators create them, copil reads. */
export function AdminProgrammesPage() {
  const { t } = useTranslation('programmes');
  const { session } = useSession();
  const canWrite = mayAdminWrite(session?.roles ?? []);
  const list = useAdminProgrammes();
  const create = useCreateProgramme();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
        <Typography component="h1" variant="h5">
          {t('admin.title')}
        </Typography>
        {canWrite && !creating && (
          <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setCreating(true)} data-testid="programme-new">
            {t('admin.new')}
          </Button>
        )}
      </Box>
      <ReadOnlyNotice />
      {creating && (
        <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="programme-new-title">
          <Typography component="h2" variant="h6" id="programme-new-title" sx={{ mb: 2 }}>
            {t('admin.new')}
          </Typography>
          <ProgrammeForm
            readOnly={false}
            pending={create.isPending}
            onSubmit={async (body) => {
              const created = await create.mutateAsync(body);
              void navigate(`/admin/programmes/${created.id}`);
            }}
          />
        </Paper>
      )}
      {list.isPending && <Skeleton variant="rounded" height={120} />}
      {list.isError && <Alert severity="error">{errorText(list.error)}</Alert>}
      {list.data?.length === 0 && <Typography color="text.secondary">{t('admin.none')}</Typography>}
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
        {list.data?.map((p) => (
          <Paper component="li" key={p.id} variant="outlined" sx={{ p: 2 }} data-testid="admin-programme">
            <Link component={RouterLink} to={`/admin/programmes/${p.id}`} variant="h6">
              {p.name}
            </Link>
            <ProgrammeFacts programme={p} />
          </Paper>
        ))}
      </Box>
    </Box>
  );
}
