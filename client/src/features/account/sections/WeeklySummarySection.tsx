import { Switch } from '@mantine/core';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { failureText, type ProfileUser } from '../api';
import { useSaveSetting } from '../hooks';
import { Section } from './Section';

/** A switch saved as soon as it is flipped; while saving it shows the new value. */
export function WeeklySummarySection({ user }: { user: ProfileUser }) {
  const save = useSaveSetting<boolean>(
    '/receive_weekly_summary_reports',
    'Your weekly summary setting has been saved.',
    (value) => ({ value }),
  );
  const form = useServerForm({ value: Boolean(user.receive_weekly_summary_reports) }, (d) => save(d.value), {
    errorsOf: (error) => ({ value: failureText(error) }),
  });
  const checked = form.pending ? form.draft.value : Boolean(user.receive_weekly_summary_reports);
  return (
    <Section title="Weekly summary reports">
      <Switch
        label="Receive the weekly summary reports by e-mail"
        checked={checked}
        disabled={form.pending}
        onChange={(e) => {
          form.set('value', e.currentTarget.checked);
          void form.submit();
        }}
        error={form.err('value')}
      />
    </Section>
  );
}
