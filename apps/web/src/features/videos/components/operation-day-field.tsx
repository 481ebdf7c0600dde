import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs from 'dayjs';
import { DateLocalization } from '@/lib/date-localization';

const DAY = 'YYYY-MM-DD';

/**
 * The date field of the operation day (OperationDayEditor), with the date pickers and their
 * locales: a module of its own, loaded after the case page has drawn.
 */
export default function OperationDayField({ label, day, onChange }: { label: string; day: string; onChange(day: string): void }) {
  return (
    <DateLocalization>
      <DatePicker
        label={label}
        value={day ? dayjs(day, DAY) : null}
        disableFuture
        onChange={(next) => onChange(next?.isValid() ? next.format(DAY) : '')}
        slotProps={{ textField: { size: 'small', 'data-testid': 'operation-day' } as object, field: { clearable: true } }}
      />
    </DateLocalization>
  );
}
