import {
  Alert,
  Anchor,
  Button,
  Card,
  Fieldset,
  Group,
  NumberInput,
  Progress,
  SimpleGrid,
  Skeleton,
  Slider,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { isTeacher } from '../../../app/access';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { usePermissions } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { onePageProfiles, type OnePageProfile, type OnePageProfileChanges } from '../api';
import { PROGRESS_HEIGHT } from './OnePageProfilesPage';

const TEXT_FIELDS: { key: keyof OnePageProfileChanges; label: string }[] = [
  { key: 'liked_about_me', label: 'What people like and admire about me' },
  { key: 'important_to_me', label: 'What is important to me' },
  { key: 'support_methods', label: 'How best to support me' },
  { key: 'hobbies', label: 'Hobbies' },
  { key: 'career_aspirations', label: 'Career aspirations' },
  { key: 'notes', label: 'Notes' },
];

/**
 * One student's one-page profile, viewed and edited in place (route one-page-profiles/:id/details).
 * Readers who may not change it (teachers of the student, some partner users) see it read-only.
 */
export function OnePageProfilePage() {
  const { id = '' } = useParams();
  const profile = onePageProfiles.useOne(id, { silentErrors: false });
  if (profile.isPending) return <Skeleton height={300} />;
  if (profile.isError)
    return (
      <Alert color="gray" title="One-page profile not found">
        <Anchor component={Link} to="/users/one-page-profiles">
          Back to one-page profiles
        </Anchor>
      </Alert>
    );
  return <ProfileForm profile={profile.data} />;
}

function ProfileForm({ profile }: { profile: OnePageProfile }) {
  // The draft holds only the changed fields: the save sends just those.
  const save = onePageProfiles.useCommand(
    (changes: OnePageProfileChanges) => onePageProfiles.update(profile.id, changes),
    { success: 'Profile saved' },
  );
  const form = useServerForm<OnePageProfileChanges>({}, save.mutateAsync);
  const { draft, set, err, dirty } = form;
  useEffect(() => form.reset({}), [profile.updated_at]);
  const value = <K extends keyof OnePageProfileChanges>(key: K) =>
    (key in draft ? draft[key] : profile[key]) as OnePageProfile[K];
  const progress = value('progress');
  const readOnly = profile.can_edit === false;
  const teacher = isTeacher(usePermissions());

  return (
    <Stack gap="lg">
      <title>{`${profile.user.full_name}: one-page profile · ${PRODUCT_NAME}`}</title>
      <Anchor component={Link} to={teacher ? '/teacher-my-students' : '/users/one-page-profiles'} size="sm">
        {teacher ? '← My students' : '← One-page profiles'}
      </Anchor>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{profile.user.full_name}</Title>
          <Text c="dimmed">{readOnly ? 'One-page profile (read only)' : 'One-page profile'}</Text>
        </div>
        {!readOnly && (
          <Button onClick={() => void form.submit()} disabled={!dirty} loading={form.pending}>
            Save changes
          </Button>
        )}
      </Group>
      <Card withBorder radius="md">
        <Text size="sm" fw={500} id="progress-label">
          How complete is this profile? {progress}%
        </Text>
        <Progress value={progress} size={PROGRESS_HEIGHT} my="xs" aria-hidden />
        <Slider
          disabled={readOnly}
          aria-labelledby="progress-label"
          min={0}
          max={100}
          step={5}
          value={progress}
          onChange={(v) => set('progress', v)}
          marks={[{ value: 0 }, { value: 50 }, { value: 100 }]}
        />
        {err('progress') && (
          <Text c="red" size="sm" mt="xs">
            {err('progress')}
          </Text>
        )}
      </Card>
      <Card withBorder radius="md">
        <Fieldset variant="unstyled" disabled={readOnly} p={0}>
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            <TextInput
              label="Preferred name"
              value={value('preferred_name') ?? ''}
              onChange={(e) => set('preferred_name', e.currentTarget.value || null)}
              error={err('preferred_name')}
            />
            <TextInput
              label="Year group"
              value={value('year_group') ?? ''}
              onChange={(e) => set('year_group', e.currentTarget.value || null)}
              error={err('year_group')}
            />
            <NumberInput
              label="Age"
              min={3}
              max={30}
              value={value('age') ?? ''}
              onChange={(v) => set('age', typeof v === 'number' ? v : null)}
              error={err('age')}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }} mt="md">
            <TagsInput
              label="Favourite subjects"
              value={value('favourite_subjects')}
              onChange={(v) => set('favourite_subjects', v)}
              error={err('favourite_subjects')}
            />
            <TagsInput
              label="Least favourite subjects"
              value={value('least_favourite_subjects')}
              onChange={(v) => set('least_favourite_subjects', v)}
              error={err('least_favourite_subjects')}
            />
          </SimpleGrid>
          <Stack mt="md">
            {TEXT_FIELDS.map(({ key, label }) => (
              <Textarea
                key={key}
                label={label}
                autosize
                minRows={2}
                value={(value(key) as string | null) ?? ''}
                onChange={(e) => set(key, e.currentTarget.value || null)}
                error={err(key)}
              />
            ))}
          </Stack>
        </Fieldset>
      </Card>
    </Stack>
  );
}
