import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ManageAccountsOutlined from '@mui/icons-material/ManageAccountsOutlined';
import MarkEmailUnreadOutlined from '@mui/icons-material/MarkEmailUnreadOutlined';
import PersonOffOutlined from '@mui/icons-material/PersonOffOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import { USER_STATES, type AdminUser, type UserState } from '@sutura/domain/admin';
import { mayAdminWrite, ROLES, type Role } from '@sutura/domain/roles';
import { PendingButton } from '@/components/pending-button';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useToast } from '@/lib/toast';
import { ADMIN_PAGE_SIZE, useAdminUsers, useResendValidation, useSetActive } from '@/features/admin/api/admin';
import { DeactivateDialog } from '@/features/admin/components/deactivate-dialog';
import { ReadOnlyNotice } from '@/features/admin/components/read-only-notice';
import { RolesDialog } from '@/features/admin/components/roles-dialog';
import { SearchField } from '@/features/admin/components/search-field';
import { SsoSummary, UserIdentities } from '@/features/admin/components/sso-summary';
import { useSsoOptions } from '@/lib/sso';
import { useUrlParams } from '@/features/admin/hooks/use-url-params';

const FILTER_KEYS = ['q', 'role', 'state'] as const;
const STATE_COLOURS: Record<UserState, 'success' | 'default' | 'warning'> = {
  active: 'success',
  deactivated: 'default',
  unvalidated: 'warning',
};

function UserCard({ user, self, canWrite, sso }: { user: AdminUser; self: boolean; canWrite: boolean; sso: boolean }) {
  const { t } = useTranslation(['admin', 'errors']);
  const toast = useToast();
  const [dialog, setDialog] = useState<'roles' | 'deactivate' | null>(null);
  const setActive = useSetActive();
  const resend = useResendValidation();
  const name = `${user.firstName} ${user.lastName}`;
  const created = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium' }).format(new Date(user.createdAt));
  const fail = (error: unknown) => toast('error', errorText(error));
  return (
    <Paper component="li" variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1 }} data-testid="admin-user">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        <Typography component="h3" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
          {name}
        </Typography>
        {self && <Chip size="small" label={t('admin:users.self')} />}
        <Chip size="small" color={STATE_COLOURS[user.state]} label={t(`admin:states.${user.state}`)} data-testid="admin-user-state" />
      </Box>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }} data-testid="admin-user-email">
        {user.email}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {user.rpps ? t('admin:users.rpps', { rpps: user.rpps }) : t('admin:users.noRpps')} · {t('admin:users.createdAt', { date: created })}
      </Typography>
      <Box
        component="ul"
        aria-label={t('admin:users.roles')}
        sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', flexWrap: 'wrap', gap: 0.5 }}
      >
        {user.roles.map((role) => (
          <li key={role}>
            <Chip
              size="small"
              variant="outlined"
              color="secondary"
              label={t(`admin:roles.${role}`)}
              data-testid={`admin-user-role-${role}`}
            />
          </li>
        ))}
      </Box>
      {sso && <UserIdentities userId={user.id} />}
      {canWrite && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 0.5 }}>
          <Button
            size="small"
            variant="outlined"
            startIcon={<ManageAccountsOutlined aria-hidden />}
            onClick={() => setDialog('roles')}
            data-write
            data-testid="admin-user-roles"
          >
            {t('admin:users.editRoles')}
          </Button>
          {user.state === 'unvalidated' && (
            <PendingButton
              size="small"
              variant="outlined"
              icon={<MarkEmailUnreadOutlined aria-hidden />}
              pending={resend.isPending}
              onClick={() =>
                resend.mutate(user.id, { onSuccess: () => toast('success', t('admin:users.resent', { email: user.email })), onError: fail })
              }
              data-write
              data-testid="admin-user-resend"
            >
              {t('admin:users.resend')}
            </PendingButton>
          )}
          {user.state === 'deactivated' ? (
            <PendingButton
              size="small"
              variant="outlined"
              icon={<PersonOutlined aria-hidden />}
              pending={setActive.isPending}
              onClick={() =>
                setActive.mutate(
                  { id: user.id, active: true },
                  { onSuccess: () => toast('success', t('admin:users.reactivated')), onError: fail },
                )
              }
              data-write
              data-testid="admin-user-reactivate"
            >
              {t('admin:users.reactivate')}
            </PendingButton>
          ) : (
            !self && (
              <Button
                size="small"
                variant="outlined"
                color="error"
                startIcon={<PersonOffOutlined aria-hidden />}
                onClick={() => setDialog('deactivate')}
                data-write
                data-testid="admin-user-deactivate"
              >
                {t('admin:users.deactivate')}
              </Button>
            )
          )}
        </Box>
      )}
      {dialog === 'roles' && <RolesDialog user={user} self={self} onClose={() => setDialog(null)} />}
      {dialog === 'deactivate' && <DeactivateDialog user={user} onClose={() => setDialog(null)} />}
    </Paper>
  );
}

/** `/admin/users`: search, filters, roles, deactivation, single sign-on and linked identities; copil sees the same list without any action. */
export function AdminUsersPage() {
  const { t } = useTranslation(['admin', 'errors']);
  const { session } = useSession();
  const canWrite = mayAdminWrite(session?.roles ?? []);
  const { values, page, update } = useUrlParams(FILTER_KEYS);
  const role = (ROLES as readonly string[]).includes(values.role) ? (values.role as Role) : '';
  const state = (USER_STATES as readonly string[]).includes(values.state) ? (values.state as UserState) : '';
  const list = useAdminUsers({ q: values.q, role, state, page });
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / ADMIN_PAGE_SIZE)) : 1;
  const sso = (useSsoOptions().data?.providers.length ?? 0) > 0;

  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto', width: '100%' }} data-testid="admin-page">
      <ReadOnlyNotice />
      <SsoSummary />
      <Box
        role="search"
        sx={{ display: 'grid', gap: 2, mb: 2, gridTemplateColumns: { xs: '1fr', sm: '2fr 1fr 1fr' } }}
        aria-label={t('admin:users.search')}
      >
        <SearchField
          label={t('admin:users.search')}
          placeholder={t('admin:users.searchHint')}
          value={values.q}
          onSearch={(q) => update({ q })}
          size="small"
          data-testid="admin-users-search"
        />
        <TextField
          select
          size="small"
          label={t('admin:users.role')}
          value={role}
          onChange={(e) => update({ role: e.target.value })}
          data-testid="admin-users-role"
        >
          <MenuItem value="">{t('admin:users.any')}</MenuItem>
          {ROLES.map((r) => (
            <MenuItem key={r} value={r}>
              {t(`admin:roles.${r}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('admin:users.state')}
          value={state}
          onChange={(e) => update({ state: e.target.value })}
          data-testid="admin-users-state"
        >
          <MenuItem value="">{t('admin:users.any')}</MenuItem>
          {USER_STATES.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`admin:states.${s}`)}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      {list.isError && <Alert severity="error">{errorText(list.error)}</Alert>}
      {list.data && (
        <Typography color="text.secondary" sx={{ mb: 1 }} role="status" data-testid="admin-users-count">
          {t('admin:users.count', { count: list.data.total })}
        </Typography>
      )}
      {list.isPending && <Skeleton variant="rounded" height={120} />}
      {list.data?.data.length === 0 && <Alert severity="info">{t('admin:users.empty')}</Alert>}
      <Box
        component="ul"
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' },
          opacity: list.isPlaceholderData ? 0.6 : 1,
        }}
        aria-busy={list.isFetching || undefined}
      >
        {list.data?.data.map((user) => (
          <UserCard key={user.id} user={user} self={user.id === session?.userId} canWrite={canWrite} sso={sso} />
        ))}
      </Box>
      {pages > 1 && (
        <Box component="nav" aria-label={t('admin:users.pagination')} sx={{ display: 'flex', justifyContent: 'center', mt: 3 }}>
          <Pagination count={pages} page={page} onChange={(_, p) => update({ page: String(p) })} siblingCount={0} />
        </Box>
      )}
    </Box>
  );
}
