import 'mantine-datatable/styles.css';
import { Anchor, Group, Paper, SegmentedControl, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { DataTable, type DataTableSortStatus } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { formatInZone, viewerTimezone } from '../../../shared/dates';
import { clampPage } from '../../../shared/pagination';
import { useListState } from '../../../shared/routing/list-state';
import { useSession } from '../../../shared/session';
import { PaginationBar } from '../../../shared/ui/PaginationBar';
import { useAriaSort } from '../../../shared/ui/aria-sort';
import { useUserList, type UserListParams, type UserStatus, type UserView } from '../api';
import { StatusBadges } from './StatusBadges';

/** Debounce for the search box: one request once typing pauses. */
export const SEARCH_DEBOUNCE_MS = 300;

interface UserListPanelProps {
  /** The table's accessible name and the pagination's label. */
  title: string;
  /** Which users: the API's type / customer_type filters. */
  filter: Pick<UserListParams, 'type' | 'customerType'>;
  /** Where a row leads. */
  detailsPath: (user: UserView) => string;
  /** The customer column (administrators see every school's users; partners only their own). */
  showCustomer?: boolean;
  /** Text when there are no users at all (without a search or status filter). */
  emptyText?: string;
  /** Show a customer user's role ("Link Contact") as their type rather than "Customer". */
  roleAsType?: boolean;
}

/**
 * The users table shared by users/:type and my-users: search, status filter, sortable columns and
 * 5-link pagination over GET /api/v1/users/ (spec §5). The server scopes what comes back.
 */
export function UserListPanel({
  title,
  filter,
  detailsPath,
  showCustomer = true,
  emptyText = 'No users yet',
  roleAsType = false,
}: UserListPanelProps) {
  const navigate = useNavigate();
  const sortedTable = useAriaSort<HTMLDivElement>();
  const timezone = viewerTimezone(useSession((state) => state.user));
  // Search, status, sort and page live in the address: they survive Back and reload (issue 18).
  const [list, setList] = useListState({ sort: 'full_name', filters: { status: 'all' } });
  const { q: search, page, size: perPage } = list;
  const status = list.status as UserStatus | 'all';
  const setPage = (next: number) => setList({ page: next });
  const [searchInput, setSearchInput] = useState(search);
  // Big lists stop counting (decision 0069); "Count all" asks the server to count this list exactly.
  const [exactTotal, setExactTotal] = useState(false);
  const [debounced] = useDebouncedValue(searchInput, SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    if (debounced.trim() !== search) setList({ q: debounced.trim() });
  }, [debounced]);
  const sortStatus: DataTableSortStatus<UserView> = {
    columnAccessor: list.sort.replace(/^-/, ''),
    direction: list.sort.startsWith('-') ? 'desc' : 'asc',
  };
  const setSortStatus = (next: DataTableSortStatus<UserView>) =>
    setList({ sort: `${next.direction === 'desc' ? '-' : ''}${String(next.columnAccessor)}` });

  const sortBy = list.sort;
  const query = useUserList({
    ...filter,
    page,
    size: perPage,
    search,
    status: status === 'all' ? null : status,
    sortBy,
    exactTotal,
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
    <Paper withBorder radius="md" p="md" ref={sortedTable}>
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
            onChange={(value) => setList({ status: value })}
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
      ) : query.isError && !query.data ? (
        <Text role="alert" c="red" py="md">
          The users could not be loaded. {query.error.message}{' '}
          <Anchor component="button" type="button" onClick={() => void query.refetch()}>
            Try again
          </Anchor>
        </Text>
      ) : (
        <DataTable<UserView>
          aria-label={title}
          minHeight={query.data && total === 0 ? 180 : 120}
          withTableBorder={false}
          highlightOnHover
          verticalAlign="center"
          records={query.data?.items ?? []}
          fetching={query.isFetching}
          noRecordsText={search || status !== 'all' ? 'No users match the search' : emptyText}
          sortStatus={sortStatus}
          onSortStatusChange={setSortStatus}
          onRowClick={({ record }) => void navigate(detailsPath(record))}
          rowStyle={() => ({ cursor: 'pointer' })}
          columns={[
            {
              accessor: 'full_name',
              title: 'Name',
              sortable: true,
              render: (user) => (
                <Anchor
                  component={Link}
                  to={detailsPath(user)}
                  fw={600}
                  onClick={(event) => event.stopPropagation()}
                >
                  {user.full_name}
                </Anchor>
              ),
            },
            { accessor: 'email', title: 'E-mail', sortable: true },
            {
              accessor: 'type_label',
              title: 'Type',
              sortable: true,
              render: (user) => (roleAsType && user.customer_profile?.type_label) || user.type_label,
            },
            ...(showCustomer
              ? [
                  {
                    accessor: 'customer_name' as const,
                    title: 'Customer',
                    render: (user: UserView) => user.customer_name ?? '—',
                  },
                ]
              : []),
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
        totalExact={query.data?.total_exact ?? true}
        onCountExactly={() => setExactTotal(true)}
        onPageChange={setPage}
        onPerPageChange={(next) => setList({ size: next })} // back to page 1 (spec §5)
      />
    </Paper>
  );
}
