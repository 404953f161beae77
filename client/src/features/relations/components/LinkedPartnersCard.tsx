import { Anchor, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { LoadFailedAlert } from './LoadFailedAlert';
import type { UserView } from '../../users/api';
import { useLinkedPartners } from '../api';

/** The partner users (link contacts, parents, ...) a student is linked to: GET /users/{id}/linked-partners. */
export function LinkedPartnersCard({ user }: { user: UserView }) {
  const partners = useLinkedPartners(user.id);
  const items = partners.data?.items ?? [];
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="linked-partners-title">
      <Title order={2} fz="h4" id="linked-partners-title">
        Linked customer users
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        Link contacts and parents / carers who see this student. Change them on each of those users&rsquo;
        pages.
      </Text>
      {partners.isPending && (
        <Stack gap={6} aria-busy="true" aria-label="Loading linked customer users">
          <Skeleton height={18} />
        </Stack>
      )}
      {partners.isError && (
        <LoadFailedAlert
          title="The linked customer users could not be loaded"
          error={partners.error}
          onRetry={() => void partners.refetch()}
        />
      )}
      {partners.isSuccess && items.length === 0 && (
        <Text size="sm" c="dimmed">
          No customer user is linked to this student.
        </Text>
      )}
      {partners.isSuccess && items.length > 0 && (
        <Table verticalSpacing="xs" striped aria-label="Linked customer users">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Login</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/users/${p.id}/details`} size="sm">
                    {p.display_name}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {p.login}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
