import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PersonRemoveOutlined from '@mui/icons-material/PersonRemoveOutlined';
import type { AdminUser } from '@sutura/domain/admin';
import type { ProgrammePerson } from '@sutura/domain/programmes';
import { mayAdminWrite } from '@sutura/domain/roles';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { errorText } from '@/lib/http';
import { useSession } from '@/lib/session';
import { useToast } from '@/lib/toast';
import { useAdminUsers } from '@/features/admin/api/admin';
import { ReadOnlyNotice } from '@/features/admin/components/read-only-notice';
import { useAddPerson, useAdminProgramme, useDeleteProgramme, useRemovePerson, useUpdateProgramme } from '@/lib/programmes';
import { ProgrammeForm } from '@/components/programmes/programme-form';

/** The learners or the directors of a programme: listed, added by a search of people, removed at once. */
function People({
  programmeId,
  list,
  people,
  canWrite,
}: {
  programmeId: string;
  list: 'members' | 'directors';
  people: ProgrammePerson[];
  canWrite: boolean;
}) {
  const { t } = useTranslation('programmes');
  const toast = useToast();
  const [q, setQ] = useState('');
  const [picked, setPicked] = useState<AdminUser | null>(null);
  const search = useAdminUsers({ q, role: list === 'members' ? 'learner' : '', state: 'active', page: 1 });
  const add = useAddPerson(programmeId, list);
  const remove = useRemovePerson(programmeId, list);
  const fail = (error: unknown) => toast('error', errorText(error));
  const heading = `people-${list}`;
  return (
    <Paper variant="outlined" sx={{ p: 2, display: 'grid', gap: 1.5 }} component="section" aria-labelledby={heading}>
      <Typography component="h2" variant="h6" id={heading}>
        {t(`admin.${list}`, { count: people.length })}
      </Typography>
      {people.length === 0 && <Typography color="text.secondary">{t(`admin.${list}None`)}</Typography>}
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 0.5 }} data-testid={`programme-${list}`}>
        {people.map((p) => (
          <Box component="li" key={p.id} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography sx={{ flex: 1, overflowWrap: 'anywhere' }}>
              {p.firstName} {p.lastName}{' '}
              <Typography component="span" variant="body2" color="text.secondary">
                {p.email}
              </Typography>
            </Typography>
            {canWrite && (
              <IconButton
                aria-label={t(`admin.remove.${list}`, { name: `${p.firstName} ${p.lastName}` })}
                onClick={() => remove.mutate(p.id, { onError: fail })}
                disabled={remove.isPending}
              >
                <PersonRemoveOutlined />
              </IconButton>
            )}
          </Box>
        ))}
      </Box>
      {canWrite && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <Autocomplete
            sx={{ flex: '1 1 240px' }}
            options={(search.data?.data ?? []).filter((u) => !people.some((p) => p.id === u.id))}
            value={picked}
            onChange={(_, v) => setPicked(v)}
            inputValue={q}
            onInputChange={(_, v) => setQ(v)}
            filterOptions={(x) => x}
            getOptionLabel={(u) => `${u.firstName} ${u.lastName} (${u.email})`}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            noOptionsText={t('admin.noPerson')}
            renderInput={(params) => <TextField {...params} size="small" label={t(`admin.search.${list}`)} />}
          />
          <Button
            variant="outlined"
            disabled={!picked || add.isPending}
            data-testid={`programme-add-${list}`}
            onClick={() =>
              picked &&
              add.mutate(picked.id, {
                onSuccess: () => {
                  setPicked(null);
                  setQ('');
                },
                onError: fail,
              })
            }
          >
            {t(`admin.add.${list}`)}
          </Button>
        </Box>
      )}
    </Paper>
  );
}

/** `/admin/programmes/:id`: a programme's details and settings, its learners and its directors. */
export function AdminProgrammePage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('programmes');
  const { session } = useSession();
  const toast = useToast();
  const navigate = useNavigate();
  const canWrite = mayAdminWrite(session?.roles ?? []);
  const programme = useAdminProgramme(id);
  const update = useUpdateProgramme(id);
  const remove = useDeleteProgramme(id);
  const [confirming, setConfirming] = useState(false);
  if (programme.isPending) return <Skeleton variant="rounded" height={320} />;
  if (programme.isError) return <Alert severity="error">{errorText(programme.error)}</Alert>;
  const p = programme.data;
  return (
    <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
      <Link component={RouterLink} to="/admin/programmes" variant="body2">
        {t('admin.back')}
      </Link>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
        <Typography component="h1" variant="h5" data-testid="admin-programme-title">
          {p.name}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button component={RouterLink} to={`/programmes/${p.id}`} variant="outlined">
            {t('admin.cohort')}
          </Button>
          {canWrite && (
            <Button color="error" variant="outlined" onClick={() => setConfirming(true)}>
              {t('admin.delete')}
            </Button>
          )}
        </Box>
      </Box>
      <ReadOnlyNotice />
      <Paper variant="outlined" sx={{ p: 2 }}>
        <ProgrammeForm
          key={JSON.stringify([p.name, p.settings, p.startsOn, p.endsOn, p.specialty])}
          programme={p}
          readOnly={!canWrite}
          pending={update.isPending}
          onSubmit={async (body) => {
            await update.mutateAsync(body);
            toast('success', t('admin.saved'));
          }}
        />
      </Paper>
      <People programmeId={p.id} list="members" people={p.members} canWrite={canWrite} />
      <People programmeId={p.id} list="directors" people={p.directors} canWrite={canWrite} />
      <ConfirmDialog
        open={confirming}
        title={t('admin.deleteTitle', { name: p.name })}
        text={t('admin.deleteText')}
        confirm={t('admin.delete')}
        cancel={t('admin.cancel')}
        pending={remove.isPending}
        danger
        testId="programme-delete"
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => void navigate('/admin/programmes'),
            onError: (error) => toast('error', errorText(error)),
          })
        }
      />
    </Box>
  );
}
