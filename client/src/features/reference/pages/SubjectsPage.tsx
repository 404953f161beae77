import { Button, Text } from '@mantine/core';
import { INTERNAL_PERMISSIONS } from '@portal/projections/permissions';
import { useState } from 'react';
import { internalMay } from '../../../app/access';
import { usePermissions } from '../../../shared/session';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import { subjects, type Subject } from '../api';
import { NamedItemModal } from './NamedItemModal';

/** Subjects (route settings/subjects): internal users read; subject editors add and rename. */
export function SubjectsPage() {
  const mayEdit = internalMay(usePermissions(), INTERNAL_PERMISSIONS.SUBJECT);
  const [editing, setEditing] = useState<Subject | 'new' | null>(null);
  const save = subjects.useCommand(
    ({ id, name }: { id: string | null; name: string }) =>
      id ? subjects.update(id, { name }) : subjects.create({ name }),
    { silentErrors: true, success: (_r, { name }) => `${name} saved` },
  );
  const current = editing === 'new' ? null : editing;
  return (
    <ResourceListPage<Subject>
      title="Subjects"
      eyebrow="Teaching settings"
      description="The subjects programmes are taught in."
      noun="subjects"
      action={mayEdit ? <Button onClick={() => setEditing('new')}>Add subject</Button> : undefined}
      search={{ label: 'Search subjects', placeholder: 'Search by name' }}
      useList={subjects.useList}
      empty={{ none: 'No subjects yet.', search: 'No subject matches your search.' }}
      columns={[
        {
          accessor: 'name',
          title: 'Name',
          render: (s) => (
            <Text fw={500} size="sm">
              {s.name}
            </Text>
          ),
        },
        {
          accessor: 'actions',
          title: '',
          textAlign: 'right',
          render: (s) =>
            mayEdit ? (
              <Button
                size="xs"
                variant="subtle"
                onClick={() => setEditing(s)}
                aria-label={`Rename ${s.name}`}
              >
                Rename
              </Button>
            ) : null,
        },
      ]}
    >
      <NamedItemModal
        opened={editing !== null}
        title={current ? `Rename ${current.name}` : 'Add a subject'}
        initial={current ? { name: current.name, key_stage: null } : undefined}
        onClose={() => setEditing(null)}
        onSave={({ name }) => save.mutateAsync({ id: current?.id ?? null, name })}
      />
    </ResourceListPage>
  );
}
