import { Group, Progress, Text } from '@mantine/core';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import { onePageProfiles, type OnePageProfile } from '../api';

/** Spec §9: default progress bar height 3. */
export const PROGRESS_HEIGHT = 3;

/** Students' one-page profiles (route users/one-page-profiles). */
export function OnePageProfilesPage() {
  return (
    <ResourceListPage<OnePageProfile>
      title="One-page profiles"
      description="What matters to each student and how best to support them, in their own words."
      noun="profiles"
      search={{ label: 'Search students', placeholder: 'Search by student name' }}
      useList={onePageProfiles.useList}
      rowHref={(p) => `/one-page-profiles/${p.id}/details`}
      empty={{ none: 'No one-page profiles yet.', search: 'No profile matches your search.' }}
      columns={[
        {
          accessor: 'user.full_name',
          title: 'Student',
          render: (p) => (
            <>
              <Text size="sm" fw={500}>
                {p.user.full_name}
              </Text>
              {p.preferred_name && (
                <Text size="xs" c="dimmed">
                  Likes to be called {p.preferred_name}
                </Text>
              )}
            </>
          ),
        },
        { accessor: 'user.customer_name', title: 'School', render: (p) => p.user.customer_name ?? '—' },
        { accessor: 'year_group', title: 'Year group', render: (p) => p.year_group ?? '—' },
        {
          accessor: 'progress',
          title: 'Complete',
          width: 220,
          render: (p) => (
            <Group gap="xs" wrap="nowrap">
              <Progress
                value={p.progress}
                size={PROGRESS_HEIGHT}
                w={140}
                aria-label={`${p.user.full_name}: ${p.progress}% complete`}
              />
              <Text size="xs" c="dimmed">
                {p.progress}%
              </Text>
            </Group>
          ),
        },
      ]}
    />
  );
}
