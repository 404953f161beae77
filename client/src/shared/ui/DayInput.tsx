import { DateInput, type DateInputProps } from '@mantine/dates';
import { parseDayMonthYear } from '../dates';

/**
 * A calendar day typed or picked as dd.mm.yyyy (spec §9), whatever the browser's language — a native
 * `<input type="date">` shows the browser's own format (mm/dd/yyyy in an American Chromium). The value
 * is the API's local date, `yyyy-MM-dd`, or '' when empty.
 */
export function DayInput({
  value,
  onChange,
  ...props
}: Omit<DateInputProps, 'value' | 'onChange'> & { value: string; onChange: (value: string) => void }) {
  return (
    <DateInput
      valueFormat="DD.MM.YYYY"
      dateParser={parseDayMonthYear}
      placeholder="dd.mm.yyyy"
      {...props}
      value={value || null}
      onChange={(next) => onChange(next ?? '')}
    />
  );
}
