import { Button, Group, NumberInput, Stack } from '@mantine/core';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { failureText, MAX_LESSONS_PER_WEEK, type ProfileUser } from '../api';
import { useSaveSetting } from '../hooks';
import { Section } from './Section';

export function LessonsSection({ user }: { user: ProfileUser }) {
  const save = useSaveSetting<number | null>(
    '/requested_number_of_lessons',
    'Your requested number of lessons has been saved.',
    (n) => ({ requested_number_of_lessons_per_week: n }),
  );
  // Empty means "no preference" (saved as null).
  const form = useServerForm(
    { lessons: (user.requested_number_of_lessons_per_week ?? '') as number | string },
    (d) => save(d.lessons === '' ? null : Number(d.lessons)),
    {
      validate: (d) => {
        const n = Number(d.lessons);
        return {
          lessons:
            d.lessons !== '' && (!Number.isInteger(n) || n < 0 || n > MAX_LESSONS_PER_WEEK)
              ? `Enter a whole number from 0 to ${MAX_LESSONS_PER_WEEK}`
              : undefined,
        };
      },
      errorsOf: (error) => ({ lessons: failureText(error) }),
    },
  );
  return (
    <Section title="Lessons per week">
      <form onSubmit={form.onSubmit} noValidate aria-label="Lessons per week">
        <Stack gap="sm">
          <NumberInput
            label="Requested number of lessons per week"
            min={0}
            max={MAX_LESSONS_PER_WEEK}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            value={form.draft.lessons}
            onChange={(value) => form.set('lessons', value)}
            description={`0 to ${MAX_LESSONS_PER_WEEK}; leave empty for no preference`}
            error={form.err('lessons')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={form.pending}>
              Save lessons
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
