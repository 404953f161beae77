import { Button, Select, Text } from '@mantine/core';
import { useState } from 'react';
import { canModifyProgram, canReadNetworks } from '../../../app/access';
import { usePermissions } from '../../../shared/session';
import { formatDay } from '../../../shared/dates';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import { networks } from '../../networks/api';
import { termCalendars, type TermCalendar, type TermCalendarInput } from '../api';
import { TermCalendarModal } from './TermCalendarModal';

/**
 * Term calendars (route settings/term-calendars): each network's terms and closure days, and a partner
 * school's own where it differs. Programme managers edit them; schedules skip closures and the days
 * outside terms.
 */
export function TermCalendarsPage() {
  const permissions = usePermissions();
  const mayEdit = canModifyProgram(permissions);
  const [networkId, setNetworkId] = useState<string | null>(null);
  const [editing, setEditing] = useState<TermCalendar | 'new' | null>(null);
  const networkList = networks.useList({ page: 1, size: 100 }, { enabled: canReadNetworks(permissions) });
  const networkOptions = (networkList.data?.items ?? []).map((n) => ({ value: n.id, label: n.name }));
  const networkName = (id: string) => networkOptions.find((n) => n.value === id)?.label ?? 'Network';
  const save = termCalendars.useCommand(
    ({ id, input }: { id: string | null; input: TermCalendarInput }) =>
      id
        ? termCalendars.update(id, { name: input.name, terms: input.terms, closures: input.closures })
        : termCalendars.create(input),
    { silentErrors: true, success: 'Term calendar saved' },
  );
  const current = editing === 'new' ? undefined : (editing ?? undefined);

  return (
    <ResourceListPage<TermCalendar, { network_id?: string }>
      title="Term calendars"
      eyebrow="Teaching settings"
      description="Terms and closure days per network, and a partner school's own where it differs. Lessons are only planned in term, never on a closure day."
      noun="term calendars"
      action={mayEdit ? <Button onClick={() => setEditing('new')}>Add calendar</Button> : undefined}
      search={{ label: 'Search term calendars', placeholder: 'Search by name' }}
      toolbar={
        networkOptions.length > 0 ? (
          <Select
            label="Network"
            placeholder="All networks"
            clearable
            data={networkOptions}
            value={networkId}
            onChange={setNetworkId}
            maw={280}
          />
        ) : undefined
      }
      filters={networkId ? { network_id: networkId } : {}}
      useList={termCalendars.useList}
      rowLabel={(c) => c.name}
      empty={{ none: 'No term calendars yet.', search: 'No term calendar matches your search.' }}
      columns={[
        {
          accessor: 'name',
          title: 'Name',
          render: (c) => (
            <>
              <Text fw={500} size="sm">
                {c.name}
              </Text>
              <Text size="xs" c="dimmed">
                {networkName(c.network_id)}
                {c.customer_id ? ' · one school' : ''}
              </Text>
            </>
          ),
        },
        {
          accessor: 'terms',
          title: 'Terms',
          render: (c) =>
            c.terms.length === 0 ? (
              <Text size="sm" c="dimmed">
                None (the network's apply)
              </Text>
            ) : (
              <Text size="sm">
                {c.terms
                  .map((t) => `${t.name} ${formatDay(t.first_day)}–${formatDay(t.last_day)}`)
                  .join(' · ')}
              </Text>
            ),
        },
        { accessor: 'closures', title: 'Closure days', render: (c) => String(c.closures.length) },
        {
          accessor: 'actions',
          title: '',
          textAlign: 'right',
          render: (c) =>
            mayEdit ? (
              <Button size="xs" variant="subtle" onClick={() => setEditing(c)} aria-label={`Edit ${c.name}`}>
                Edit
              </Button>
            ) : null,
        },
      ]}
    >
      <TermCalendarModal
        opened={editing !== null}
        calendar={current}
        networkOptions={networkOptions}
        onClose={() => setEditing(null)}
        onSave={(input) => save.mutateAsync({ id: current?.id ?? null, input })}
      />
    </ResourceListPage>
  );
}
