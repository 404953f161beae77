import {
  Alert,
  Anchor,
  Button,
  Card,
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
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { fieldErrorsOf } from '../../../shared/api/field-errors';
import { fieldMessage } from '../../../shared/forms/field-message';
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

/** One student's one-page profile, viewed and edited in place (route one-page-profiles/:id/details). */
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
  const [draft, setDraft] = useState<OnePageProfileChanges>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => setDraft({}), [profile.updated_at]);
  const value = <K extends keyof OnePageProfileChanges>(key: K) =>
    (key in draft ? draft[key] : profile[key]) as OnePageProfile[K];
  const set = <K extends keyof OnePageProfileChanges>(key: K, v: OnePageProfileChanges[K]) =>
    setDraft((d) => ({ ...d, [key]: v }));
  const save = onePageProfiles.useCommand(() => onePageProfiles.update(profile.id, draft), {
    success: 'Profile saved',
  });
  const submit = () =>
    save.mutate(undefined, {
      onSuccess: () => setErrors({}),
      onError: (error) => {
        const fields = fieldErrorsOf(error);
        if (fields)
          setErrors(Object.fromEntries(Object.entries(fields).map(([k, m]) => [k, fieldMessage(m) ?? m])));
      },
    });
  const dirty = Object.keys(draft).length > 0;
  const progress = value('progress');

  return (
    <Stack gap="lg">
      <title>{`${profile.user.full_name}: one-page profile · ${PRODUCT_NAME}`}</title>
      <Anchor component={Link} to="/users/one-page-profiles" size="sm">
        ← One-page profiles
      </Anchor>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{profile.user.full_name}</Title>
          <Text c="dimmed">One-page profile</Text>
        </div>
        <Button onClick={submit} disabled={!dirty} loading={save.isPending}>
          Save changes
        </Button>
      </Group>
      <Card withBorder radius="md">
        <Text size="sm" fw={500} id="progress-label">
          How complete is this profile? {progress}%
        </Text>
        <Progress value={progress} size={PROGRESS_HEIGHT} my="xs" aria-hidden />
        <Slider
          aria-labelledby="progress-label"
          min={0}
          max={100}
          step={5}
          value={progress}
          onChange={(v) => set('progress', v)}
          marks={[{ value: 0 }, { value: 50 }, { value: 100 }]}
        />
        {errors.progress && (
          <Text c="red" size="sm" mt="xs">
            {errors.progress}
          </Text>
        )}
      </Card>
      <Card withBorder radius="md">
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          <TextInput
            label="Preferred name"
            value={value('preferred_name') ?? ''}
            onChange={(e) => set('preferred_name', e.currentTarget.value || null)}
            error={errors.preferred_name}
          />
          <TextInput
            label="Year group"
            value={value('year_group') ?? ''}
            onChange={(e) => set('year_group', e.currentTarget.value || null)}
            error={errors.year_group}
          />
          <NumberInput
            label="Age"
            min={3}
            max={30}
            value={value('age') ?? ''}
            onChange={(v) => set('age', typeof v === 'number' ? v : null)}
            error={errors.age}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, md: 2 }} mt="md">
          <TagsInput
            label="Favourite subjects"
            value={value('favourite_subjects')}
            onChange={(v) => set('favourite_subjects', v)}
            error={errors.favourite_subjects}
          />
          <TagsInput
            label="Least favourite subjects"
            value={value('least_favourite_subjects')}
            onChange={(v) => set('least_favourite_subjects', v)}
            error={errors.least_favourite_subjects}
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
              error={errors[key]}
            />
          ))}
        </Stack>
      </Card>
    </Stack>
  );
}
