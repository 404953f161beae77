import { Grid, NavLink, Paper, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { apiRequest } from '../../../shared/api/client';
import { LoadFailedAlert } from '../components/LoadFailedAlert';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import type { Page } from '../../../shared/api/types';
import type { CustomerRole, UserView } from '../../users/api';
import { LinkedStudentsCard } from '../components/LinkedStudentsCard';

const TABS: { value: string; role: CustomerRole; label: string; empty: string }[] = [
  { value: 'link-contacts', role: 'link-contact', label: 'Link contacts', empty: 'No link contacts yet.' },
  { value: 'parents', role: 'parent', label: 'Parents / carers', empty: 'No parents or carers yet.' },
];

/**
 * partner/relationships/:tabName?: a partner (super-)admin links their school's link contacts and
 * parents to its students (ADR 0034). One tab per kind of customer user; pick one to see and edit
 * their linked students.
 */
export function RelationshipsPage() {
  const { tabName } = useParams();
  const navigate = useNavigate();
  const tab = TABS.find((t) => t.value === tabName) ?? TABS[0]!;
  const [chosen, setChosen] = useState<string | null>(null);
  // The customer's users the caller may see (GET /users/customers is scoped to their own customer).
  const users = useQuery({
    queryKey: ['users', 'relations', 'customer-users'],
    queryFn: ({ signal }) =>
      apiRequest<Page<UserView>>('/api/v1/users/customers', { signal, query: { page: 1, size: 500 } }),
    meta: { silentErrors: true },
  });
  const ofTab = (users.data?.items ?? []).filter((u) => u.customer_profile?.type === tab.role);
  const selected = ofTab.find((u) => u.id === chosen) ?? ofTab[0] ?? null;

  return (
    <Stack gap="md">
      <title>{`Relationships · ${PRODUCT_NAME}`}</title>
      <div>
        <Title order={1} fz="h2">
          Relationships
        </Title>
        <Text c="dimmed" size="sm">
          Link contacts and parents / carers see only the students linked to them.
        </Text>
      </div>
      <Tabs
        value={tab.value}
        onChange={(v) => {
          setChosen(null);
          void navigate(`/partner/relationships/${v ?? TABS[0]!.value}`);
        }}
      >
        <Tabs.List aria-label="Kinds of customer users">
          {TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {users.isPending && (
        <Stack gap="xs" aria-busy="true" aria-label="Loading users">
          <Skeleton height={36} />
          <Skeleton height={36} />
        </Stack>
      )}
      {users.isError && (
        <LoadFailedAlert
          title="The users could not be loaded"
          error={users.error}
          onRetry={() => void users.refetch()}
        />
      )}
      {users.isSuccess && ofTab.length === 0 && (
        <Paper withBorder radius="md" p="lg">
          <Text size="sm" c="dimmed">
            {tab.empty}
          </Text>
        </Paper>
      )}
      {users.isSuccess && selected && (
        <Grid>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Paper withBorder radius="md" p="xs" component="nav" aria-label={tab.label}>
              {ofTab.map((u) => (
                <NavLink
                  key={u.id}
                  component="button"
                  label={u.full_name}
                  description={u.login}
                  active={u.id === selected.id}
                  aria-current={u.id === selected.id ? 'true' : undefined}
                  onClick={() => setChosen(u.id)}
                />
              ))}
            </Paper>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <LinkedStudentsCard key={selected.id} user={selected} canEdit />
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}

export default RelationshipsPage;
