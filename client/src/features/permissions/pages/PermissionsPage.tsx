import 'mantine-datatable/styles.css';
import {
  Alert,
  Badge,
  Button,
  Grid,
  Group,
  NavLink,
  Paper,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { DataTable } from 'mantine-datatable';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { notifySuccess } from '../../../shared/notify';
import { clampPage, DEFAULT_PER_PAGE } from '../../../shared/pagination';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { PaginationBar } from '../../../shared/ui/PaginationBar';
import type { UserView } from '../../users/api';
import {
  KIND_TITLES,
  useAssignPermission,
  usePermissionCatalogue,
  usePermissionUsers,
  type PermissionInfo,
  type PermissionKind,
} from '../api';
import { actionErrorText } from '../../../shared/ui/action-error';

const SEARCH_DEBOUNCE_MS = 300;
const KINDS: PermissionKind[] = ['view', 'action', 'internal'];

function Catalogue({
  items,
  selected,
  onSelect,
}: {
  items: PermissionInfo[];
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const [filter, setFilter] = useState('');
  const text = filter.trim().toLowerCase();
  const shown = text
    ? items.filter((p) => p.label.toLowerCase().includes(text) || p.name.toLowerCase().includes(text))
    : items;
  return (
    <Paper withBorder radius="md" p="md">
      <TextInput
        label="Find a permission"
        placeholder="Label or name"
        type="search"
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
        mb="sm"
      />
      <ScrollArea.Autosize mah="calc(100vh - 300px)" type="auto" scrollbars="y">
        <nav aria-label="Permission catalogue">
          {KINDS.map((kind) => {
            const group = shown.filter((p) => p.kind === kind);
            if (group.length === 0) return null;
            return (
              <div key={kind}>
                <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.6} mt="sm" mb={4}>
                  {KIND_TITLES[kind]} ({group.length})
                </Text>
                {group.map((p) => (
                  <NavLink
                    key={p.id}
                    label={p.label}
                    description={p.name}
                    active={p.id === selected}
                    styles={{ description: { overflowWrap: 'anywhere' } }}
                    onClick={() => onSelect(p.id)}
                    aria-current={p.id === selected ? 'true' : undefined}
                  />
                ))}
              </div>
            );
          })}
          {shown.length === 0 && (
            <Text size="sm" c="dimmed">
              No permission matches “{filter}”.
            </Text>
          )}
        </nav>
      </ScrollArea.Autosize>
    </Paper>
  );
}

/** One side of the screen: the holders, or the users who could be given the permission. */
function UsersPanel({ permission, holding }: { permission: PermissionInfo; holding: boolean }) {
  const title = holding ? 'Holders' : 'Can be given';
  const [searchInput, setSearchInput] = useState('');
  const [search] = useDebouncedValue(searchInput, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(DEFAULT_PER_PAGE);
  const [selected, setSelected] = useState<UserView[]>([]);
  const query = usePermissionUsers(permission.id, holding, { page, size: perPage, search });
  const change = useAssignPermission();
  const total = query.data?.total ?? 0;

  useEffect(() => setPage(1), [search]);
  useEffect(() => {
    if (query.data && !query.isPlaceholderData) {
      const next = clampPage(page, query.data.total, perPage);
      if (next !== page) setPage(next);
    }
  }, [query.data, query.isPlaceholderData, page, perPage]);
  // A selection only makes sense for the rows on screen.
  useEffect(() => setSelected([]), [page, perPage, search]);

  const run = (users: UserView[]) =>
    change.mutate(
      { id: permission.id, give: !holding, userIds: users.map((u) => u.id) },
      {
        onSuccess: () => {
          const who = users.length === 1 ? users[0]!.full_name : `${users.length} users`;
          notifySuccess(
            holding ? `${permission.label} taken from ${who}.` : `${permission.label} given to ${who}.`,
          );
          setSelected([]);
        },
      },
    );
  const verb = holding ? 'Remove' : 'Give';

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="sm" align="flex-end">
        <div>
          <Title order={3} fz="h5">
            {title}
          </Title>
          <Text size="xs" c="dimmed">
            {holding
              ? 'Users who hold this permission now.'
              : `${permission.kind === 'internal' ? 'Teachers' : 'Partner users'} without it.`}
          </Text>
        </div>
        <Button
          size="xs"
          variant={holding ? 'light' : 'filled'}
          color={holding ? 'red' : undefined}
          disabled={selected.length === 0}
          loading={change.isPending}
          onClick={() => run(selected)}
        >
          {verb} selected{selected.length > 0 ? ` (${selected.length})` : ''}
        </Button>
      </Group>
      <TextInput
        label="Search"
        aria-label={`Search ${title.toLowerCase()}`}
        placeholder="Name, login or e-mail"
        type="search"
        size="xs"
        value={searchInput}
        onChange={(e) => setSearchInput(e.currentTarget.value)}
        mb="sm"
      />
      {change.error != null && (
        <Alert color="red" role="alert" title="That did not work" mb="sm">
          {actionErrorText(change.error)}
        </Alert>
      )}
      {query.isError ? (
        <Alert color="red" role="alert" title={`${title} could not be loaded`}>
          {actionErrorText(query.error)}
        </Alert>
      ) : query.isPending ? (
        <Stack gap={8} aria-busy="true" aria-label={`Loading ${title.toLowerCase()}`}>
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} height={26} radius="sm" />
          ))}
        </Stack>
      ) : (
        <DataTable<UserView>
          aria-label={title}
          minHeight={total === 0 ? 140 : 80}
          withTableBorder={false}
          verticalAlign="center"
          records={query.data?.items ?? []}
          fetching={query.isFetching}
          noRecordsText={
            search ? 'No users match the search' : holding ? 'Nobody holds it' : 'Nobody to give it to'
          }
          selectedRecords={selected}
          onSelectedRecordsChange={setSelected}
          getRecordSelectionCheckboxProps={(user) => ({ 'aria-label': `Select ${user.full_name}` })}
          allRecordsSelectionCheckboxProps={{ 'aria-label': `Select every user on this page (${title})` }}
          columns={[
            {
              accessor: 'full_name',
              title: 'Name',
              render: (user) => (
                <div>
                  <Text size="sm" fw={600}>
                    {user.full_name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {user.email}
                  </Text>
                  {/* Partner users are told apart by their school (issue 18). */}
                  {user.customer_name && (
                    <Text size="xs" c="dimmed">
                      {user.customer_name}
                    </Text>
                  )}
                </div>
              ),
            },
            { accessor: 'type_label', title: 'Type' },
            {
              accessor: 'id',
              title: <VisuallyHidden>Action</VisuallyHidden>,
              textAlign: 'right',
              render: (user) => (
                <Button
                  size="compact-xs"
                  variant="default"
                  aria-label={`${verb} ${permission.label} ${holding ? 'from' : 'to'} ${user.full_name}`}
                  disabled={change.isPending}
                  onClick={() => run([user])}
                >
                  {verb}
                </Button>
              ),
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
          setPage(1);
        }}
      />
    </Paper>
  );
}

/** users/permissions (spec §2, canModifyUser): the permission catalogue, and who holds each permission. */
export function PermissionsPage() {
  const catalogue = usePermissionCatalogue();
  const [params, setParams] = useSearchParams();
  const items = useMemo(() => catalogue.data?.items ?? [], [catalogue.data]);
  const selectedId = params.get('permission') ?? items[0]?.id ?? null;
  const selected = items.find((p) => p.id === selectedId) ?? null;

  return (
    <Stack gap="md">
      <title>{`User permissions · ${PRODUCT_NAME}`}</title>
      <div>
        <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.6}>
          Users
        </Text>
        <Title order={1} fz="h2">
          User permissions
        </Title>
        <Text size="sm" c="dimmed">
          Pick a permission to see who holds it, then give it to or take it from several users at once.
        </Text>
      </div>
      {catalogue.isError ? (
        <Alert color="red" role="alert" title="The permission catalogue could not be loaded">
          {actionErrorText(catalogue.error)}
        </Alert>
      ) : catalogue.isPending ? (
        <Skeleton height={300} radius="md" aria-label="Loading permissions" />
      ) : (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Catalogue
              items={items}
              selected={selected?.id ?? null}
              onSelect={(id) => setParams({ permission: id }, { replace: true })}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            {selected ? (
              <Stack gap="md">
                <Paper withBorder radius="md" p="md">
                  <Group gap="sm">
                    <Title order={2} fz="h3">
                      {selected.label}
                    </Title>
                    <Badge variant="light">{KIND_TITLES[selected.kind]}</Badge>
                  </Group>
                  <Text size="sm" c="dimmed" ff="monospace">
                    {selected.name}
                  </Text>
                </Paper>
                {/* key: a new permission starts both panels afresh (page 1, no search, no selection). */}
                <UsersPanel key={`${selected.id}-held`} permission={selected} holding />
                <UsersPanel key={`${selected.id}-free`} permission={selected} holding={false} />
              </Stack>
            ) : (
              <Paper withBorder radius="md" p="xl">
                <Text c="dimmed">No permissions to show.</Text>
              </Paper>
            )}
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}

export default PermissionsPage;
