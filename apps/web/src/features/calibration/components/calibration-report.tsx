import { useState } from 'react';
import Box from '@mui/material/Box';
import type { AgreementItem, AgreementReport } from '@sutura/domain/agreement';
import { AgreementItemSelect } from '@/components/agreement/agreement-item-select';
import { AgreementSummary } from '@/components/agreement/agreement-summary';
import { BlandAltmanPlot } from '@/components/agreement/bland-altman-plot';
import { ExpertDifferences } from '@/components/agreement/expert-differences';

/** The agreement table, then, for the rating chosen, who rates higher or lower and the Bland–Altman plot. */
export function CalibrationReport({ report }: { report: AgreementReport }) {
  const [item, setItem] = useState<AgreementItem>('global');
  return (
    <Box sx={{ display: 'grid', gap: 3, minWidth: 0 }}>
      <AgreementSummary report={report} />
      {report.cases > 0 && (
        <>
          <AgreementItemSelect value={item} onChange={setItem} />
          <ExpertDifferences report={report} item={item} />
          <BlandAltmanPlot report={report} item={item} />
        </>
      )}
    </Box>
  );
}
