import '@mantine/dates/styles.css';
import { Button, Group, Stack } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { DATE_FORMAT, formatInZone } from '../../../shared/dates';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { failureText, parseDayMonthYear, type ProfileUser } from '../api';
import { useSaveSetting } from '../hooks';
import { Section } from './Section';

export function BirthDateSection({ user }: { user: ProfileUser }) {
  const save = useSaveSetting<string | null>(
    '/birth_date',
    'Your birth date has been saved.',
    (birth_date) => ({ birth_date }),
  );
  const form = useServerForm({ birth_date: user.birth_date ?? null }, (d) => save(d.birth_date), {
    errorsOf: (error) => ({ birth_date: failureText(error) }),
  });
  return (
    <Section title="Birth date">
      <form onSubmit={form.onSubmit} noValidate aria-label="Birth date">
        <Stack gap="sm">
          <DateInput
            label="Birth date"
            valueFormat="DD.MM.YYYY"
            dateParser={parseDayMonthYear}
            placeholder="dd.mm.yyyy"
            clearable
            value={form.draft.birth_date}
            onChange={(value) => form.set('birth_date', value)}
            minDate="1900-01-01"
            maxDate={new Date().toISOString().slice(0, 10)}
            defaultLevel="decade"
            error={form.err('birth_date')}
            description={
              user.birth_date
                ? `Saved: ${formatInZone(`${user.birth_date}T12:00:00Z`, 'UTC', DATE_FORMAT)}`
                : 'Not set'
            }
          />
          <Group justify="flex-end">
            <Button type="submit" loading={form.pending}>
              Save birth date
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
