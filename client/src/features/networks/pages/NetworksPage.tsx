import 'mantine-datatable/styles.css';
import {
  Alert,
  Anchor,
  Button,
  ColorSwatch,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { DataTable } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { canModifyNetwork } from '../../../app/access';
import { activeNetwork } from '../../../shared/current-user';
import { clampPage, DEFAULT_PER_PAGE } from '../../../shared/pagination';
import { usePermissions, useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { PaginationBar } from '../../../shared/ui/PaginationBar';
import { networks, type Network } from '../api';
import { actionErrorText } from '../../../shared/ui/action-error';

/** Shown to readers who may not change networks, so the missing buttons are not a mystery. */
export function ReadOnlyNetworksNote() {
  return (
    <Alert color="gray" variant="light" title="Read only">
      Creating or changing a network needs an administrator with the network permission (CAN_MODIFY_NETWORK).
    </Alert>
  );
}

/** networks (spec §2): every network with its time zone and primary colour. */
export function NetworksPage() {
  const navigate = useNavigate();
  const mayModify = canModifyNetwork(usePermissions());
  const activeId = activeNetwork(useSession((s) => s.user))?.id;
  const [searchInput, setSearchInput] = useState('');
  const [search] = useDebouncedValue(searchInput, 300);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(DEFAULT_PER_PAGE);
  const query = networks.useList({ page, size: perPage, search });
  const total = query.data?.total ?? 0;

  useEffect(() => setPage(1), [search]);
  useEffect(() => {
    if (query.data && !query.isPlaceholderData) {
      const next = clampPage(page, query.data.total, perPage);
      if (next !== page) setPage(next);
    }
  }, [query.data, query.isPlaceholderData, page, perPage]);

  return (
    <Stack gap="md">
      <title>{`Networks · ${PRODUCT_NAME}`}</title>
      <Group justify="space-between" align="flex-end">
        <div>
          <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.6}>
            Networks and permissions
          </Text>
          <Title order={1} fz="h2">
            Networks
          </Title>
        </div>
        {mayModify && (
          <Button component={Link} to="/networks/new">
            New network
          </Button>
        )}
      </Group>
      {!mayModify && <ReadOnlyNetworksNote />}
      <Paper withBorder radius="md" p="md">
        <TextInput
          label="Search"
          placeholder="Network name"
          type="search"
          value={searchInput}
          onChange={(e) => setSearchInput(e.currentTarget.value)}
          w={{ base: '100%', sm: 320 }}
          mb="sm"
        />
        {query.isError ? (
          <Alert color="red" role="alert" title="Networks could not be loaded">
            {actionErrorText(query.error)}
          </Alert>
        ) : query.isPending ? (
          <Stack gap={8} aria-busy="true" aria-label="Loading networks" py="xs">
            {Array.from({ length: 5 }, (_, i) => (
              <Skeleton key={i} height={28} radius="sm" />
            ))}
          </Stack>
        ) : (
          <DataTable<Network>
            aria-label="Networks"
            minHeight={total === 0 ? 160 : 100}
            withTableBorder={false}
            highlightOnHover
            verticalAlign="center"
            records={query.data?.items ?? []}
            fetching={query.isFetching}
            noRecordsText={search ? 'No networks match the search' : 'No networks yet'}
            onRowClick={({ record }) => void navigate(`/networks/details/${record.id}`)}
            rowStyle={() => ({ cursor: 'pointer' })}
            columns={[
              {
                accessor: 'name',
                title: 'Name',
                render: (n) => (
                  <Group gap="xs" wrap="nowrap">
                    <ColorSwatch color={n.primary_colour} size={16} aria-hidden />
                    <Anchor
                      component={Link}
                      to={`/networks/details/${n.id}`}
                      fw={600}
                      onClick={(e) => e.stopPropagation()}
                    >
                      {n.name}
                    </Anchor>
                    {String(activeId) === n.id && (
                      <Text size="xs" c="dimmed">
                        (your active network)
                      </Text>
                    )}
                  </Group>
                ),
              },
              { accessor: 'timezone', title: 'Time zone' },
              {
                accessor: 'primary_colour',
                title: 'Primary colour',
                render: (n) => (
                  <Text ff="monospace" size="sm">
                    {n.primary_colour}
                  </Text>
                ),
              },
            ]}
          />
        )}
        <PaginationBar
          label="Network pages"
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
    </Stack>
  );
}

export default NetworksPage;
