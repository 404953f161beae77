import { Alert, Card, Pagination, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { viewerTimezone } from '../../../shared/dates';
import { useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { safeguardingApi } from '../api';
import { IncidentRow } from '../components/IncidentRow';
import { SAFEGUARDING_KEY } from '../hooks';

const PER_PAGE = 10;

/** Incidents about the partner's own students (route my-safeguarding-incidents). */
export function MyIncidentsPage() {
  const navigate = useNavigate();
  const timezone = viewerTimezone(useSession((s) => s.user));
  const [page, setPage] = useState(1);
  const incidents = useQuery({
    queryKey: [SAFEGUARDING_KEY, 'partner', page],
    queryFn: () => safeguardingApi.partnerList(page, PER_PAGE),
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((incidents.data?.total ?? 0) / PER_PAGE));
  return (
    <Stack gap="lg">
      <title>{`Safeguarding incidents · ${PRODUCT_NAME}`}</title>
      <div>
        <Title order={1}>Safeguarding incidents</Title>
        <Text c="dimmed" mt={4}>
          Concerns recorded about your students, with what has been done about them.
        </Text>
      </div>
      <Card withBorder radius="md" p={0}>
        {incidents.isError ? (
          <Alert color="red" m="md" title="The incidents could not be loaded" />
        ) : incidents.isPending ? (
          <Stack p="md">
            <Skeleton height={36} />
            <Skeleton height={36} />
          </Stack>
        ) : incidents.data.total === 0 ? (
          <Text p="xl" ta="center" c="dimmed">
            No incidents have been recorded about your students.
          </Text>
        ) : (
          <Table highlightOnHover verticalSpacing="sm" aria-label="Safeguarding incidents">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Happened</Table.Th>
                <Table.Th>Students</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Risk</Table.Th>
                <Table.Th>Stage</Table.Th>
                <Table.Th>Reported by</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {incidents.data.items.map((incident) => (
                <IncidentRow
                  key={incident.id}
                  incident={incident}
                  timezone={timezone}
                  onOpen={() => void navigate(`/my-safeguarding-incidents/${incident.id}`)}
                />
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} siblings={2} boundaries={0} />}
    </Stack>
  );
}
