import { Badge, Button, Group, Select, Text } from '@mantine/core';
import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { canModifyProgram } from '../../../app/access';
import type { ListParams } from '../../../shared/api/resource';
import { listQuery } from '../../../shared/api/resource';
import { usePermissions } from '../../../shared/session';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import {
  myProgrammes,
  programmes,
  PROGRAMME_STATUSES,
  STATUS_COLOURS,
  useCustomerOptions,
  type Programme,
} from '../api';

const SORTS = [
  { value: 'title', label: 'Title' },
  { value: '-start_date', label: 'Newest start' },
  { value: 'start_date', label: 'Oldest start' },
  { value: 'status', label: 'Status' },
];

/** `my-programmes`: the caller's own programmes (a teacher's via their groups, a partner's school's). */
const useMine = (params: ListParams) =>
  useQuery({
    queryKey: programmes.keys.other('my', { ...params, search: params.search?.trim() ?? '' }),
    queryFn: () => myProgrammes(listQuery(params)),
    placeholderData: keepPreviousData,
    meta: { silentErrors: true },
  });

/** Programmes with status filter, search and sort (routes programmes and my-programmes). */
export function ProgrammesPage({ mine = false }: { mine?: boolean }) {
  const permissions = usePermissions();
  const [status, setStatus] = useState<string | null>(null);
  const [sortBy, setSortBy] = useState<string | null>('title');
  const [customer, setCustomer] = useState<string | null>(null);
  // Managers pick a school; partners only ever see their own.
  const schools = useCustomerOptions(canModifyProgram(permissions) && !mine);
  return (
    <ResourceListPage<Programme, { status?: string; sort_by?: string; customer_id?: string }>
      title={mine ? 'My programmes' : 'Programmes'}
      description={
        mine
          ? 'The programmes you teach, or your school commissions.'
          : 'What partner schools commission: lessons or mentoring, with their groups and enrolments.'
      }
      noun="programmes"
      action={
        canModifyProgram(permissions) && !mine ? (
          <Button component={Link} to="/programmes/add">
            Add programme
          </Button>
        ) : undefined
      }
      search={{ label: 'Search programmes', placeholder: 'Search by title' }}
      toolbar={
        <Group gap="sm">
          <Select
            label="Status"
            placeholder="Any status"
            clearable
            data={PROGRAMME_STATUSES.map((s) => ({ value: s, label: s }))}
            value={status}
            onChange={setStatus}
            w={180}
          />
          {canModifyProgram(permissions) && !mine && (
            <Select
              label="School"
              placeholder="Any school"
              clearable
              searchable
              data={(schools.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }))}
              value={customer}
              onChange={setCustomer}
              w={220}
            />
          )}
          <Select
            label="Sort by"
            data={SORTS}
            value={sortBy}
            onChange={setSortBy}
            allowDeselect={false}
            w={180}
          />
        </Group>
      }
      filters={{
        status: status ?? undefined,
        sort_by: sortBy ?? undefined,
        customer_id: customer ?? undefined,
      }}
      useList={mine ? useMine : programmes.useList}
      rowHref={(p) => `/programmes/details/${p.id}`}
      rowLabel={(p) => p.title}
      empty={{
        none: mine ? 'You have no programmes yet.' : 'No programmes yet.',
        search: 'No programme matches your search.',
      }}
      columns={[
        {
          accessor: 'title',
          title: 'Title',
          render: (p) => (
            <Text fw={500} size="sm">
              {p.title}
            </Text>
          ),
        },
        { accessor: 'customer_name', title: 'School' },
        { accessor: 'kind', title: 'Kind' },
        {
          accessor: 'start_date',
          title: 'Dates',
          render: (p) => `${p.start_date} – ${p.end_date ?? 'open'}`,
        },
        {
          accessor: 'status',
          title: 'Status',
          render: (p) => (
            <Badge variant="light" color={STATUS_COLOURS[p.status] ?? 'gray'}>
              {p.status}
            </Badge>
          ),
        },
      ]}
    />
  );
}
