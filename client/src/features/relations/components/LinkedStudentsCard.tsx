import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  MultiSelect,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { LoadFailedAlert } from './LoadFailedAlert';
import { notifySuccess } from '../../../shared/notify';
import type { UserView } from '../../users/api';
import { useCustomerStudents, useLinkedStudents, useSetLinkedStudents, type SimpleUser } from '../api';
import { fieldErrorsOf } from '../../../shared/api/field-errors';
import { actionErrorText } from '../../../shared/ui/action-error';
import { studentLabel } from '../../../shared/student-label';

/** Who the students are to this partner user, in words for the card's description. */
function roleWords(user: UserView): string {
  switch (user.customer_profile?.type) {
    case 'link-contact':
      return 'this link contact';
    case 'parent':
      return 'this parent / carer';
    default:
      return 'this customer user';
  }
}

export function StudentRows({ students }: { students: SimpleUser[] }) {
  return (
    <Table verticalSpacing="xs" striped aria-label="Linked students">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Login</Table.Th>
          <Table.Th>Status</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {students.map((s) => (
          <Table.Tr key={s.id}>
            <Table.Td>
              <Anchor component={Link} to={`/users/${s.id}/details`} size="sm">
                {s.display_name}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Text size="sm" c="dimmed">
                {s.login}
              </Text>
            </Table.Td>
            <Table.Td>
              {s.has_access && !s.is_blocked ? (
                <Badge variant="light" color="teal" radius="sm">
                  Active
                </Badge>
              ) : (
                <Badge variant="light" color="gray" radius="sm">
                  {s.has_access ? 'Blocked' : 'Deactivated'}
                </Badge>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * A partner user's linked students ("selected students", spec §6): who they see and act for.
 * GET/PUT /api/v1/users/{id}/linked-students; `canEdit` for administrators and partner admins with
 * PARTNER_CAN_ACCESS_USER_RELATIONS (the server decides).
 */
export function LinkedStudentsCard({ user, canEdit }: { user: UserView; canEdit: boolean }) {
  const linked = useLinkedStudents(user.id);
  const [editing, setEditing] = useState<string[] | null>(null);
  const options = useCustomerStudents(user.customer_id, editing !== null);
  const save = useSetLinkedStudents(user.id);

  const open = () => {
    save.reset();
    setEditing((linked.data?.items ?? []).map((s) => s.id));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (editing === null) return;
    save.mutate(editing, {
      onSuccess: () => {
        setEditing(null);
        notifySuccess('Linked students saved');
      },
    });
  };

  const current = linked.data?.items ?? [];
  const data = (options.data?.items ?? []).map((s) => ({
    value: s.id,
    label: `${studentLabel({ name: s.display_name, school: s.customer_name, year_group: s.year_group })} · ${s.login}`,
  }));
  for (const s of current)
    if (!data.some((d) => d.value === s.id))
      data.push({
        value: s.id,
        label: `${studentLabel({ name: s.display_name, school: s.customer_name, year_group: s.year_group })} · ${s.login}`,
      });
  const fieldError = fieldErrorsOf(save.error)?.student_ids;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="linked-students-title">
      <Group justify="space-between" mb="xs">
        <div>
          <Title order={2} fz="h4" id="linked-students-title">
            Linked students
          </Title>
          <Text size="sm" c="dimmed">
            The students {roleWords(user)} sees and acts for (their &ldquo;selected students&rdquo;).
          </Text>
        </div>
        {canEdit && linked.isSuccess && (
          <Button variant="default" onClick={open}>
            Edit linked students
          </Button>
        )}
      </Group>
      {linked.isPending && (
        <Stack gap={6} aria-busy="true" aria-label="Loading linked students">
          <Skeleton height={18} />
          <Skeleton height={18} />
        </Stack>
      )}
      {linked.isError && (
        <LoadFailedAlert
          title="The linked students could not be loaded"
          error={linked.error}
          onRetry={() => void linked.refetch()}
        />
      )}
      {linked.isSuccess && current.length === 0 && (
        <Text size="sm" c="dimmed">
          No linked students yet.{canEdit ? ' Link students so they can see them.' : ''}
        </Text>
      )}
      {linked.isSuccess && current.length > 0 && <StudentRows students={current} />}

      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={`Linked students of ${user.full_name}`}
        centered
        size="lg"
      >
        <form onSubmit={submit}>
          <Stack gap="sm">
            <Text size="sm">
              Choose students of {user.customer_name ?? 'their customer'}. Only linked students appear in this
              user&rsquo;s lists, and only they can be reported about with the selected-students permission.
            </Text>
            {options.isError && (
              <Alert color="red" role="alert" title="The students could not be loaded">
                {actionErrorText(options.error)}
              </Alert>
            )}
            <MultiSelect
              label="Students"
              placeholder={options.isPending ? 'Loading students…' : 'Search by name or login'}
              data={data}
              value={editing ?? []}
              onChange={setEditing}
              searchable
              clearable
              hidePickedOptions
              nothingFoundMessage={options.isFetching ? 'Loading…' : 'No students found'}
              error={fieldError}
              data-autofocus
            />
            {save.isError && !fieldError && (
              <Alert color="red" role="alert" title="That did not work">
                {actionErrorText(save.error)}
              </Alert>
            )}
            <Group justify="flex-end" mt="xs">
              <Button variant="default" onClick={() => setEditing(null)}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}
