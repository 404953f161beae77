import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { failureText, type ProfileUser } from '../api';
import { useSaveSetting } from '../hooks';
import { Section } from './Section';

/** The refusal under the name it mentions (both when it mentions both); otherwise none, for the alert. */
function nameErrorsOf(error: unknown) {
  const text = failureText(error);
  const fields = {
    ...(/first/i.test(text) ? { first_name: text } : {}),
    ...(/last/i.test(text) ? { last_name: text } : {}),
  };
  return Object.keys(fields).length > 0 ? fields : undefined;
}

export function NamesSection({ user }: { user: ProfileUser }) {
  const save = useSaveSetting<{ first_name: string; last_name: string }>(
    '',
    'Your name has been saved.',
    (v) => v,
  );
  const form = useServerForm(
    { first_name: user.first_name ?? '', last_name: user.last_name ?? '' },
    (d) => save({ first_name: d.first_name.trim(), last_name: d.last_name.trim() }),
    {
      validate: (d) => ({
        first_name: !d.first_name.trim()
          ? 'Enter your first name'
          : d.first_name.trim().length > 100
            ? 'Use at most 100 characters'
            : undefined,
        last_name: !d.last_name.trim()
          ? 'Enter your last name'
          : d.last_name.trim().length > 100
            ? 'Use at most 100 characters'
            : undefined,
      }),
      errorsOf: nameErrorsOf,
    },
  );
  const { draft, set, err } = form;
  return (
    <Section title="Name" description={`Signed in as ${user.login ?? user.email ?? ''}`}>
      <form onSubmit={form.onSubmit} noValidate aria-label="Name">
        <Stack gap="sm">
          <Group grow align="flex-start">
            <TextInput
              label="First name"
              required
              value={draft.first_name}
              onChange={(e) => set('first_name', e.currentTarget.value)}
              error={err('first_name')}
            />
            <TextInput
              label="Last name"
              required
              value={draft.last_name}
              onChange={(e) => set('last_name', e.currentTarget.value)}
              error={err('last_name')}
            />
          </Group>
          {form.failure !== null && (
            <Alert color="red" role="alert">
              {failureText(form.failure)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={form.pending}>
              Save name
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
