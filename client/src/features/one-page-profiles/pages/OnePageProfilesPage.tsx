import {
  Alert,
  Card,
  Group,
  Pagination,
  Progress,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { onePageProfiles } from '../api';

const PER_PAGE = 10;
/** Spec §9: default progress bar height 3. */
export const PROGRESS_HEIGHT = 3;

/** Students' one-page profiles (route users/one-page-profiles). */
export function OnePageProfilesPage() {
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const profiles = onePageProfiles.useList({ page, size: PER_PAGE, search: query }, { silentErrors: false });
  useEffect(() => setPage(1), [query]);
  const total = profiles.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  useEffect(() => {
    if (page > pages) setPage(1);
  }, [page, pages]);
  const open = (id: string) => void navigate(`/one-page-profiles/${id}/details`);

  return (
    <Stack gap="lg">
      <title>{`One-page profiles · ${PRODUCT_NAME}`}</title>
      <div>
        <Title order={1}>One-page profiles</Title>
        <Text c="dimmed" mt={4}>
          What matters to each student and how best to support them, in their own words.
        </Text>
      </div>
      <TextInput
        aria-label="Search students"
        placeholder="Search by student name"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={360}
      />
      <Card withBorder radius="md" p={0}>
        {profiles.isError ? (
          <Alert color="red" m="md" title="The profiles could not be loaded" />
        ) : profiles.isPending ? (
          <Stack p="md" aria-busy="true">
            <Skeleton height={32} />
            <Skeleton height={32} />
          </Stack>
        ) : total === 0 ? (
          <Text p="xl" ta="center" c="dimmed">
            {query ? 'No profile matches your search.' : 'No one-page profiles yet.'}
          </Text>
        ) : (
          <Table highlightOnHover verticalSpacing="sm" aria-label="One-page profiles">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Student</Table.Th>
                <Table.Th>Year group</Table.Th>
                <Table.Th w={220}>Complete</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {profiles.data.items.map((p) => (
                <Table.Tr
                  key={p.id}
                  tabIndex={0}
                  style={{ cursor: 'pointer' }}
                  onClick={() => open(p.id)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') open(p.id);
                  }}
                >
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {p.user.full_name}
                    </Text>
                    {p.preferred_name && (
                      <Text size="xs" c="dimmed">
                        Likes to be called {p.preferred_name}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{p.year_group ?? '—'}</Text>
                  </Table.Td>
                  <Table.Td>
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
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} siblings={2} boundaries={0} />}
    </Stack>
  );
}
