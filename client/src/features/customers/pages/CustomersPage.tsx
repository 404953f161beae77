import {
  Alert,
  Button,
  Card,
  Group,
  Pagination,
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
import { formatInZone, viewerTimezone, DATE_FORMAT } from '../../../shared/dates';
import { useSession } from '../../../shared/session';
import { customers as resource } from '../api';
import { NameModal } from './NameModal';

const PER_PAGE = 10;

/** Customers: the partner schools and organisations (route customers). */
export function CustomersPage() {
  const navigate = useNavigate();
  const timezone = viewerTimezone(useSession((s) => s.user));
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const customers = resource.useList({ page, size: PER_PAGE, search: query }, { silentErrors: false });
  const create = resource.useCommand((name: string) => resource.create({ name }), {
    also: ({ id }) => {
      setAdding(false);
      void navigate(`/customers/details/${id}`);
    },
  });
  useEffect(() => setPage(1), [query]);
  const total = customers.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  useEffect(() => {
    if (page > pages) setPage(1);
  }, [page, pages]);

  return (
    <Stack gap="lg">
      <title>{`Customers · ${PRODUCT_NAME}`}</title>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Customers</Title>
          <Text c="dimmed" mt={4}>
            Partner schools and organisations, and their users.
          </Text>
        </div>
        <Button onClick={() => setAdding(true)}>Add customer</Button>
      </Group>
      <TextInput
        aria-label="Search customers"
        placeholder="Search by name"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={360}
      />
      <Card withBorder radius="md" p={0}>
        {customers.isError ? (
          <Alert color="red" m="md" title="The customers could not be loaded" />
        ) : customers.isPending ? (
          <Stack p="md" aria-busy="true">
            <Skeleton height={32} />
            <Skeleton height={32} />
            <Skeleton height={32} />
          </Stack>
        ) : total === 0 ? (
          <Text p="xl" ta="center" c="dimmed">
            {query ? 'No customer matches your search.' : 'No customers yet.'}
          </Text>
        ) : (
          <Table highlightOnHover verticalSpacing="sm" aria-label="Customers">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Added</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {customers.data.items.map((c) => (
                <Table.Tr
                  key={c.id}
                  tabIndex={0}
                  style={{ cursor: 'pointer' }}
                  onClick={() => void navigate(`/customers/details/${c.id}`)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') void navigate(`/customers/details/${c.id}`);
                  }}
                >
                  <Table.Td>
                    <Text fw={500} size="sm">
                      {c.name}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatInZone(c.created_at, timezone, DATE_FORMAT)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} siblings={2} boundaries={0} />}
      <NameModal
        title="Add a customer"
        opened={adding}
        initial=""
        pending={create.isPending}
        onClose={() => setAdding(false)}
        onSave={(name) => create.mutate(name)}
      />
    </Stack>
  );
}
