import 'mantine-datatable/styles.css';
import {
  Anchor,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { DataTable, type DataTableSortStatus } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { canModifyUser } from '../../../app/access';
import { formatInZone, viewerTimezone } from '../../../shared/dates';
import { clampPage, DEFAULT_PER_PAGE } from '../../../shared/pagination';
import { usePermissions, useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { Icon } from '../../../shared/ui/icons';
import { PaginationBar } from '../../../shared/ui/PaginationBar';
import { useUserList, type ListType, type UserStatus, type UserView } from '../api';
import { AddUserModal } from '../components/AddUserModal';
import { StatusBadges } from '../components/StatusBadges';

const TITLES: Record<ListType | 'all', string> = {
  all: 'All users',
  students: 'Students',
  teachers: 'Teachers',
  partners: 'Partner users',
  admins: 'Administrators',
};

/** Debounce for the search box: one request once typing pauses. */
export const SEARCH_DEBOUNCE_MS = 300;

/** users/:type (spec §2): one list per user type, or every user when the type is empty. */
export function UsersListPage({ type }: { type?: ListType }) {
  const title = TITLES[type ?? 'all'];
  const navigate = useNavigate();
  const timezone = viewerTimezone(useSession((state) => state.user));
  const [searchInput, setSearchInput] = useState('');
  const [search] = useDebouncedValue(searchInput, SEARCH_DEBOUNCE_MS);
  const [status, setStatus] = useState<UserStatus | 'all'>('all');
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(DEFAULT_PER_PAGE);
  const [sortStatus, setSortStatus] = useState<DataTableSortStatus<UserView>>({
    columnAccessor: 'full_name',
    direction: 'asc',
  });
  const [adding, setAdding] = useState(false);
  const mayImport = type !== undefined && canModifyUser(usePermissions());

  // A new search, filter or sort starts from the first page.
  useEffect(() => setPage(1), [search, status, sortStatus, type]);

  const sortBy = `${sortStatus.direction === 'desc' ? '-' : ''}${sortStatus.columnAccessor}`;
  const query = useUserList({
    type,
    page,
    size: perPage,
    search,
    status: status === 'all' ? null : status,
    sortBy,
  });
  const total = query.data?.total ?? 0;

  // Spec §5: back to page 1 when the total shrinks below the current page.
  useEffect(() => {
    if (query.data && !query.isPlaceholderData) {
      const next = clampPage(page, query.data.total, perPage);
      if (next !== page) setPage(next);
    }
  }, [query.data, query.isPlaceholderData, page, perPage]);

  return (
    <Stack gap="md">
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <Group justify="space-between" align="flex-end">
        <div>
          <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.6}>
            Users
          </Text>
          <Title order={1} fz="h2">
            {title}
          </Title>
        </div>
        <Group gap="xs">
          {mayImport && (
            <Button variant="default" component={Link} to={`/users/import/${type}`}>
              Import
            </Button>
          )}
          <Button leftSection={<Icon name="user" size={16} />} onClick={() => setAdding(true)}>
            Add user
          </Button>
        </Group>
      </Group>

      <Paper withBorder radius="md" p="md">
        <Group gap="sm" mb="sm" wrap="wrap" align="flex-end">
          <TextInput
            label="Search"
            placeholder="Name, login or e-mail"
            value={searchInput}
            onChange={(event) => setSearchInput(event.currentTarget.value)}
            w={{ base: '100%', sm: 320 }}
            type="search"
          />
          <div>
            <Text component="span" size="sm" fw={500} id="status-filter-label" display="block" mb={4}>
              Status
            </Text>
            <SegmentedControl
              aria-labelledby="status-filter-label"
              value={status}
              onChange={(value) => setStatus(value)}
              data={[
                { value: 'all', label: 'All' },
                { value: 'active', label: 'Active' },
                { value: 'inactive', label: 'Inactive' },
                { value: 'deactivated', label: 'Deactivated' },
              ]}
            />
          </div>
        </Group>

        {query.isPending ? (
          <Stack gap={8} aria-busy="true" aria-label="Loading users" py="xs">
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} height={28} radius="sm" />
            ))}
          </Stack>
        ) : (
          <DataTable<UserView>
            aria-label={title}
            minHeight={query.data && total === 0 ? 180 : 120}
            withTableBorder={false}
            highlightOnHover
            verticalAlign="center"
            records={query.data?.items ?? []}
            fetching={query.isFetching}
            noRecordsText={search || status !== 'all' ? 'No users match the search' : 'No users yet'}
            sortStatus={sortStatus}
            onSortStatusChange={setSortStatus}
            onRowClick={({ record }) => void navigate(`/users/${record.id}/details`)}
            rowStyle={() => ({ cursor: 'pointer' })}
            columns={[
              {
                accessor: 'full_name',
                title: 'Name',
                sortable: true,
                render: (user) => (
                  <Anchor
                    component={Link}
                    to={`/users/${user.id}/details`}
                    fw={600}
                    onClick={(event) => event.stopPropagation()}
                  >
                    {user.full_name}
                  </Anchor>
                ),
              },
              { accessor: 'email', title: 'E-mail', sortable: true },
              { accessor: 'type_label', title: 'Type', sortable: true },
              {
                accessor: 'customer_name',
                title: 'Customer',
                render: (user) => user.customer_name ?? '—',
              },
              {
                accessor: 'status',
                title: 'Status',
                sortable: true,
                render: (user) => <StatusBadges user={user} size="xs" />,
              },
              {
                accessor: 'created_at',
                title: 'Created',
                sortable: true,
                render: (user) => formatInZone(user.created_at, timezone),
              },
            ]}
          />
        )}
        <PaginationBar
          label={`${title} pages`}
          page={page}
          perPage={perPage}
          total={total}
          onPageChange={setPage}
          onPerPageChange={(next) => {
            setPerPage(next);
            setPage(1); // spec §5
          }}
        />
      </Paper>

      <AddUserModal
        opened={adding}
        onClose={() => setAdding(false)}
        defaultType={type}
        onCreated={(id) => void navigate(`/users/${id}/details`)}
      />
    </Stack>
  );
}

export default UsersListPage;
