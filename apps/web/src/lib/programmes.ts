import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Cohort, LearnerCurves, ProgrammeBody, ProgrammeDetail, ProgrammeSummary } from '@sutura/domain/programmes';
import { downloadFile } from '@/lib/download';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { programmeKeys } from '@/lib/my-programmes';

export function useCohort(id: string) {
  return useQuery({
    queryKey: programmeKeys.cohort(id, currentLanguage()),
    queryFn: () => api<Cohort>('GET', `/programmes/${id}/cohort`),
  });
}

export function useLearnerCurves(id: string, learnerId: string) {
  return useQuery({
    queryKey: programmeKeys.learner(id, learnerId, currentLanguage()),
    queryFn: () => api<LearnerCurves>('GET', `/programmes/${id}/learners/${learnerId}`),
  });
}

/** The learner's own curves, under one of their programmes' settings (null: the defaults). */
export function useOwnCurves(programmeId: string | null) {
  return useQuery({
    queryKey: programmeKeys.own(programmeId, currentLanguage()),
    queryFn: () => api<LearnerCurves>('GET', '/stats/me/learning-curves', programmeId ? { search: { programmeId } } : {}),
    placeholderData: keepPreviousData,
  });
}

export function useAdminProgrammes() {
  return useQuery({
    queryKey: programmeKeys.adminList(currentLanguage()),
    queryFn: () => api<ProgrammeSummary[]>('GET', '/admin/programmes'),
  });
}

export function useAdminProgramme(id: string) {
  return useQuery({
    queryKey: programmeKeys.adminDetail(id, currentLanguage()),
    queryFn: () => api<ProgrammeDetail>('GET', `/admin/programmes/${id}`),
  });
}

/** Every write of the administration: the programmes' answers are read afresh afterwards. */
function useProgrammeWrite<V>(run: (vars: V) => Promise<ProgrammeDetail | { id: string }>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => client.invalidateQueries({ queryKey: programmeKeys.all }),
  });
}

export const useCreateProgramme = () =>
  useProgrammeWrite((body: ProgrammeBody) => api<ProgrammeDetail>('POST', '/admin/programmes', { body }));
export const useUpdateProgramme = (id: string) =>
  useProgrammeWrite((body: ProgrammeBody) => api<ProgrammeDetail>('PUT', `/admin/programmes/${id}`, { body }));
export const useDeleteProgramme = (id: string) => useProgrammeWrite(() => api<{ id: string }>('DELETE', `/admin/programmes/${id}`));
export const useAddPerson = (id: string, list: 'members' | 'directors') =>
  useProgrammeWrite((userId: string) => api<ProgrammeDetail>('POST', `/admin/programmes/${id}/${list}`, { body: { userId } }));
export const useRemovePerson = (id: string, list: 'members' | 'directors') =>
  useProgrammeWrite((userId: string) => api<ProgrammeDetail>('DELETE', `/admin/programmes/${id}/${list}/${userId}`));

/** The cohort's CSV file, fetched with the session and saved under the server's file name. */
export function downloadCohortCsv(id: string): Promise<void> {
  return downloadFile(`/programmes/${id}/cohort/export?langCode=${currentLanguage()}`, 'sutura-cohort.csv');
}
