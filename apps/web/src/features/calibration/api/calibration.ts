import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AgreementReport } from '@sutura/domain/agreement';
import type { ExpertCalibration } from '@sutura/domain/calibration';
import { api } from '@/lib/http';

/** The period (days of the installation's clock, both included) and, optionally, one surgery. */
export interface CalibrationParams {
  from: string;
  to: string;
  surgeryId: string;
}

const filterOf = (p: CalibrationParams) => ({ from: p.from, to: p.to, ...(p.surgeryId ? { surgeryId: p.surgeryId } : {}) });

export const calibrationKeys = {
  programme: (p: CalibrationParams) => ['calibration', 'programme', p] as const,
  mine: (p: CalibrationParams) => ['calibration', 'mine', p] as const,
};

/** The administration's report: every expert by name (administrators and copil). */
export function useProgrammeCalibration(params: CalibrationParams) {
  return useQuery({
    queryKey: calibrationKeys.programme(params),
    queryFn: () => api<AgreementReport>('GET', '/admin/calibration', { query: { filter: filterOf(params) } }),
    placeholderData: keepPreviousData,
  });
}

/** An expert's view of themselves, and the programme's figures without anyone's name. */
export function useMyCalibration(params: CalibrationParams) {
  return useQuery({
    queryKey: calibrationKeys.mine(params),
    queryFn: () => api<ExpertCalibration>('GET', '/expert/calibration', { query: { filter: filterOf(params) } }),
    placeholderData: keepPreviousData,
  });
}
