import { Badge, Button, Text } from '@mantine/core';
import { INTERNAL_PERMISSIONS } from '@portal/projections/permissions';
import { useState } from 'react';
import { internalMay } from '../../../app/access';
import { usePermissions } from '../../../shared/session';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import { yearGroups, type KeyStage, type YearGroup } from '../api';
import { NamedItemModal } from './NamedItemModal';

/** Year groups and their key stages (route settings/year-groups); edited with the subject permission. */
export function YearGroupsPage() {
  const mayEdit = internalMay(usePermissions(), INTERNAL_PERMISSIONS.SUBJECT);
  const [editing, setEditing] = useState<YearGroup | 'new' | null>(null);
  const save = yearGroups.useCommand(
    ({ id, ...body }: { id: string | null; name: string; key_stage: KeyStage }) =>
      id ? yearGroups.update(id, body) : yearGroups.create(body),
    { silentErrors: true, success: (_r, { name }) => `${name} saved` },
  );
  const current = editing === 'new' ? null : editing;
  return (
    <ResourceListPage<YearGroup>
      title="Year groups"
      eyebrow="Teaching settings"
      description="Year groups, Reception to Year 13, and the key stage each belongs to."
      noun="year groups"
      action={mayEdit ? <Button onClick={() => setEditing('new')}>Add year group</Button> : undefined}
      search={{ label: 'Search year groups', placeholder: 'Search by name' }}
      useList={(params) => yearGroups.useList({ ...params, sort_by: 'key_stage' })}
      empty={{ none: 'No year groups yet.', search: 'No year group matches your search.' }}
      columns={[
        {
          accessor: 'name',
          title: 'Name',
          render: (y) => (
            <Text fw={500} size="sm">
              {y.name}
            </Text>
          ),
        },
        {
          accessor: 'key_stage',
          title: 'Key stage',
          render: (y) => <Badge variant="light">{y.key_stage}</Badge>,
        },
        {
          accessor: 'actions',
          title: '',
          textAlign: 'right',
          render: (y) =>
            mayEdit ? (
              <Button size="xs" variant="subtle" onClick={() => setEditing(y)} aria-label={`Edit ${y.name}`}>
                Edit
              </Button>
            ) : null,
        },
      ]}
    >
      <NamedItemModal
        opened={editing !== null}
        withKeyStage
        title={current ? `Edit ${current.name}` : 'Add a year group'}
        initial={current ? { name: current.name, key_stage: current.key_stage } : undefined}
        onClose={() => setEditing(null)}
        onSave={(body) => save.mutateAsync({ id: current?.id ?? null, ...body })}
      />
    </ResourceListPage>
  );
}
