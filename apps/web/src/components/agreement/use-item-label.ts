import { useTranslation } from 'react-i18next';
import { KPI_DEFINITIONS, KPIS, type Kpi } from '@sutura/domain/analysis';
import type { AgreementItem } from '@sutura/domain/agreement';
import { currentLanguage } from '@/lib/i18n';

const isKpi = (item: AgreementItem): item is Kpi => (KPIS as readonly string[]).includes(item);

/** The name of a rated item: a KPI's GOALS name, the global rating, the step ratings. */
export function useItemLabel(): (item: AgreementItem) => string {
  const { t } = useTranslation('calibration');
  const lang = currentLanguage();
  return (item) => (isKpi(item) ? KPI_DEFINITIONS[item].name[lang] : t(`items.${item}`));
}
