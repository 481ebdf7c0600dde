import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminCounts, AdminStreaming, AdminUser, AdminUserList, AuditList, UserState } from '@sutura/domain/admin';
import type { Role } from '@sutura/domain/roles';
import { serializeQuery } from '@sutura/domain/query';
import { downloadFile } from '@/lib/download';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';

export const ADMIN_PAGE_SIZE = 20;

export interface UserListParams {
  q: string;
  role: Role | '';
  state: UserState | '';
  page: number;
}

export interface AuditParams {
  actor: string;
  action: string;
  entityId: string;
  from: string;
  to: string;
  /** Where the page starts: the `nextCursor` of the page before; empty for the newest. */
  cursor: string;
}

const compact = (filter: Record<string, string>) => Object.fromEntries(Object.entries(filter).filter(([, v]) => v.trim() !== ''));

export const adminKeys = {
  counts: ['admin', 'counts'] as const,
  users: (p: UserListParams) => ['admin', 'users', p] as const,
  allUsers: ['admin', 'users'] as const,
  audit: (p: AuditParams) => ['admin', 'audit', p] as const,
};

/** The HLS ladders made and left to make (the backfill of an upgrade shows here). */
export function useAdminStreaming() {
  return useQuery({ queryKey: [...adminKeys.counts, 'streaming'], queryFn: () => api<AdminStreaming>('GET', '/admin/streaming') });
}

export function useAdminCounts() {
  return useQuery({ queryKey: adminKeys.counts, queryFn: () => api<AdminCounts>('GET', '/admin/counts') });
}

export function useAdminUsers(params: UserListParams) {
  return useQuery({
    queryKey: adminKeys.users(params),
    queryFn: () =>
      api<AdminUserList>('GET', '/admin/users', {
        query: {
          filter: compact({ q: params.q, role: params.role, state: params.state }),
          page: params.page,
          limit: ADMIN_PAGE_SIZE,
          sort: ['-createdAt'],
        },
      }),
    placeholderData: keepPreviousData,
  });
}

/** After any change to a person: the lists and the dashboard's counts are read afresh. */
function useUserMutation<V>(call: (vars: V) => Promise<AdminUser>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: adminKeys.allUsers }),
        client.invalidateQueries({ queryKey: adminKeys.counts }),
      ]);
    },
  });
}

export function useSetRoles() {
  return useUserMutation(({ id, roles }: { id: string; roles: Role[] }) =>
    api<AdminUser>('PUT', `/admin/users/${id}/roles`, { body: { roles } }),
  );
}

export function useSetActive() {
  return useUserMutation(({ id, active }: { id: string; active: boolean }) =>
    api<AdminUser>('PUT', `/admin/users/${id}/active`, { body: { active } }),
  );
}

export function useResendValidation() {
  return useMutation({
    mutationFn: (id: string) => api<{ sent: true }>('POST', `/admin/users/${id}/validation-mail`, { body: {} }),
  });
}

function auditFilter(p: Omit<AuditParams, 'cursor'>) {
  return compact({ actor: p.actor, action: p.action, entityId: p.entityId, from: p.from, to: p.to });
}

export function useAuditLog(params: AuditParams) {
  return useQuery({
    queryKey: adminKeys.audit(params),
    queryFn: () =>
      api<AuditList>('GET', '/admin/audit', {
        query: { filter: auditFilter(params), limit: ADMIN_PAGE_SIZE, ...(params.cursor ? { cursor: params.cursor } : {}) },
      }),
    placeholderData: keepPreviousData,
  });
}

/** The audit log's CSV file, as the filter asks, downloaded under the server's file name. */
export function downloadAuditCsv(params: Omit<AuditParams, 'cursor'>): Promise<void> {
  return downloadFile(
    `/admin/audit/export${serializeQuery({ filter: auditFilter(params), langCode: currentLanguage() })}`,
    'sutura-audit.csv',
  );
}
