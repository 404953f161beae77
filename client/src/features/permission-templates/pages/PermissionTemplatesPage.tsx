import 'mantine-datatable/styles.css';
import { Alert, Anchor, Button, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { DataTable } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { formatInZone, viewerTimezone } from '../../../shared/dates';
import { clampPage, DEFAULT_PER_PAGE } from '../../../shared/pagination';
import { useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { PaginationBar } from '../../../shared/ui/PaginationBar';
import { templates, type PermissionTemplate } from '../api';
import { actionErrorText } from '../../../shared/ui/action-error';

/** permission-templates (spec §2): named sets of partner permissions, searchable and paged. */
export function PermissionTemplatesPage() {
  const navigate = useNavigate();
  const timezone = viewerTimezone(useSession((state) => state.user));
  const [searchInput, setSearchInput] = useState('');
  const [search] = useDebouncedValue(searchInput, 300);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(DEFAULT_PER_PAGE);
  const query = templates.useList({ page, size: perPage, search });
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
      <title>{`Permission templates · ${PRODUCT_NAME}`}</title>
      <Group justify="space-between" align="flex-end">
        <div>
          <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.6}>
            Networks and permissions
          </Text>
          <Title order={1} fz="h2">
            Permission templates
          </Title>
        </div>
        <Button component={Link} to="/permission-templates/new">
          New template
        </Button>
      </Group>
      <Paper withBorder radius="md" p="md">
        <TextInput
          label="Search"
          placeholder="Template name"
          type="search"
          value={searchInput}
          onChange={(e) => setSearchInput(e.currentTarget.value)}
          w={{ base: '100%', sm: 320 }}
          mb="sm"
        />
        {query.isError ? (
          <Alert color="red" role="alert" title="Templates could not be loaded">
            {actionErrorText(query.error)}
          </Alert>
        ) : query.isPending ? (
          <Stack gap={8} aria-busy="true" aria-label="Loading templates" py="xs">
            {Array.from({ length: 5 }, (_, i) => (
              <Skeleton key={i} height={28} radius="sm" />
            ))}
          </Stack>
        ) : (
          <DataTable<PermissionTemplate>
            aria-label="Permission templates"
            minHeight={total === 0 ? 160 : 100}
            withTableBorder={false}
            highlightOnHover
            verticalAlign="center"
            records={query.data?.items ?? []}
            fetching={query.isFetching}
            noRecordsText={search ? 'No templates match the search' : 'No templates yet'}
            onRowClick={({ record }) => void navigate(`/permission-templates/${record.id}`)}
            rowStyle={() => ({ cursor: 'pointer' })}
            columns={[
              {
                accessor: 'name',
                title: 'Name',
                render: (t) => (
                  <Anchor
                    component={Link}
                    to={`/permission-templates/${t.id}`}
                    fw={600}
                    onClick={(e) => e.stopPropagation()}
                  >
                    {t.name}
                  </Anchor>
                ),
              },
              {
                accessor: 'permissions',
                title: 'Permissions',
                render: (t) => `${t.permissions.length}`,
              },
              {
                accessor: 'updated_at',
                title: 'Updated',
                render: (t) => formatInZone(t.updated_at, timezone),
              },
            ]}
          />
        )}
        <PaginationBar
          label="Template pages"
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

export default PermissionTemplatesPage;
