import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  MultiSelect,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { canModifyProgram } from '../../../app/access';
import { usePermissions } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { ConfirmDialog } from '../../../shared/ui/ConfirmDialog';
import { actionErrorText } from '../../../shared/ui/action-error';
import {
  addGroupStudent,
  groups,
  removeGroupStudent,
  setGroupTeachers,
  useGroup,
  useGroupCommand,
  usePickableUsers,
  type GroupTeacherInput,
} from '../api';
import { DayInput } from '../../../shared/ui/DayInput';
import { studentLabel } from '../../../shared/student-label';

/** `groups/:id`: members over time (every period, past ones included), add/remove a student, teachers. */
export function GroupPage() {
  const { id = '' } = useParams();
  const mayManage = canModifyProgram(usePermissions());
  const group = useGroup(id);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const [editingTeachers, setEditingTeachers] = useState(false);
  const [renaming, setRenaming] = useState(false);

  if (group.isPending) return <Skeleton height={200} aria-label="Loading the group" />;
  if (group.isError)
    return (
      <Alert color="gray" title="Group not found">
        <Anchor component={Link} to="/programmes">
          Back to programmes
        </Anchor>
      </Alert>
    );
  const g = group.data;
  const periods = [...g.students].sort(
    (a, b) => (a.name ?? '').localeCompare(b.name ?? '') || a.from.localeCompare(b.from),
  );
  return (
    <Stack gap="lg">
      <title>{`${g.name} · ${PRODUCT_NAME}`}</title>
      <Anchor component={Link} to={`/programmes/details/${g.programme_id}`} size="sm">
        ← {g.programme_title}
      </Anchor>
      <Group justify="space-between">
        <Title order={1}>{g.name}</Title>
        {mayManage && (
          <Button variant="default" onClick={() => setRenaming(true)}>
            Rename
          </Button>
        )}
      </Group>

      <Card withBorder p={0}>
        <Group justify="space-between" p="md" pb={0}>
          <Title order={2} fz="h4">
            Teachers
          </Title>
          {mayManage && (
            <Button size="xs" variant="default" onClick={() => setEditingTeachers(true)}>
              Set teachers
            </Button>
          )}
        </Group>
        {g.teachers.length === 0 ? (
          <Text p="md" c="dimmed">
            No teachers yet.
          </Text>
        ) : (
          <Table aria-label="Teachers of this group">
            <Table.Tbody>
              {g.teachers.map((t) => (
                <Table.Tr key={t.teacher_id}>
                  <Table.Td>{t.name ?? t.teacher_id}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={t.role === 'lead' ? 'teal' : 'gray'}>
                      {t.role}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>

      <Card withBorder p={0}>
        <Group justify="space-between" p="md" pb={0}>
          <Title order={2} fz="h4">
            Students over time
          </Title>
          {mayManage && (
            <Button size="xs" onClick={() => setAdding(true)}>
              Add student
            </Button>
          )}
        </Group>
        <Text size="xs" c="dimmed" px="md">
          Dates are the programme's local days ({g.timezone}); the last day is included.
        </Text>
        {periods.length === 0 ? (
          <Text p="md" c="dimmed">
            No students yet.
          </Text>
        ) : (
          <Table aria-label="Membership periods" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Student</Table.Th>
                <Table.Th>From</Table.Th>
                <Table.Th>To</Table.Th>
                {mayManage && <Table.Th aria-label="Actions" />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {periods.map((m) => (
                <Table.Tr key={`${m.student_id}:${m.from}`}>
                  <Table.Td>{m.name ?? m.student_id}</Table.Td>
                  <Table.Td>{m.from}</Table.Td>
                  <Table.Td>{m.to ?? <Badge variant="light">member</Badge>}</Table.Td>
                  {mayManage && (
                    <Table.Td>
                      {m.to === null && (
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          onClick={() => setRemoving({ id: m.student_id, name: m.name ?? m.student_id })}
                        >
                          Remove
                        </Button>
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      {adding && <AddStudentModal groupId={id} customerId={g.customer_id} onClose={() => setAdding(false)} />}
      {removing && <RemoveStudentDialog groupId={id} student={removing} onClose={() => setRemoving(null)} />}
      {renaming && <RenameModal groupId={id} name={g.name} onClose={() => setRenaming(false)} />}
      {editingTeachers && (
        <TeachersModal groupId={id} current={g.teachers} onClose={() => setEditingTeachers(false)} />
      )}
    </Stack>
  );
}

function AddStudentModal({
  groupId,
  customerId,
  onClose,
}: {
  groupId: string;
  customerId: string;
  onClose: () => void;
}) {
  const students = usePickableUsers('students', customerId);
  const [studentId, setStudentId] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const add = useGroupCommand(
    (body: { student_id: string; from?: string }) => addGroupStudent(groupId, body),
    'Student added.',
  );
  return (
    <Modal opened onClose={onClose} title="Add a student" centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (studentId)
            add.mutate({ student_id: studentId, from: from || undefined }, { onSuccess: onClose });
        }}
      >
        <Stack gap="sm">
          <Select
            label="Student"
            required
            searchable
            data-autofocus
            disabled={students.isPending}
            data={(students.data?.items ?? []).map((s) => ({
              value: s.id,
              label: studentLabel({ name: s.full_name, school: s.customer_name, year_group: s.year_group }),
            }))}
            value={studentId}
            onChange={setStudentId}
            error={students.isError ? 'Students could not be loaded' : undefined}
            nothingFoundMessage="No student of this school matches"
          />
          <DayInput
            label="First day"
            description="Leave empty for today"
            value={from}
            onChange={(value) => setFrom(value)}
          />
          {add.error != null && (
            <Alert color="red" role="alert" title="Student not added">
              {actionErrorText(add.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={add.isPending} disabled={!studentId}>
              Add student
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RemoveStudentDialog({
  groupId,
  student,
  onClose,
}: {
  groupId: string;
  student: { id: string; name: string };
  onClose: () => void;
}) {
  const [to, setTo] = useState('');
  const remove = useGroupCommand(
    (last: string) => removeGroupStudent(groupId, student.id, last || undefined),
    'Student removed.',
  );
  return (
    <ConfirmDialog
      opened
      title="Remove from the group?"
      message={`${student.name} stays in the group's history; their membership ends on the last day.`}
      confirmLabel="Remove"
      danger
      pending={remove.isPending}
      error={remove.error}
      onClose={onClose}
      onConfirm={() => remove.mutate(to, { onSuccess: onClose })}
    >
      <DayInput
        label="Last day"
        description="Leave empty for today"
        value={to}
        onChange={(value) => setTo(value)}
      />
    </ConfirmDialog>
  );
}

function TeachersModal({
  groupId,
  current,
  onClose,
}: {
  groupId: string;
  current: { teacher_id: string; role: string }[];
  onClose: () => void;
}) {
  const teachers = usePickableUsers('teachers');
  const [lead, setLead] = useState<string | null>(current.find((t) => t.role === 'lead')?.teacher_id ?? null);
  const [assistants, setAssistants] = useState(
    current.filter((t) => t.role !== 'lead').map((t) => t.teacher_id),
  );
  const save = useGroupCommand(
    (list: GroupTeacherInput[]) => setGroupTeachers(groupId, list),
    'Teachers saved.',
  );
  const options = (teachers.data?.items ?? []).map((t) => ({ value: t.id, label: t.full_name }));
  return (
    <Modal opened onClose={onClose} title="Set teachers" centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(
            [
              ...(lead ? [{ teacher_id: lead, role: 'lead' as const }] : []),
              ...assistants
                .filter((t) => t !== lead)
                .map((t) => ({ teacher_id: t, role: 'assistant' as const })),
            ],
            { onSuccess: onClose },
          );
        }}
      >
        <Stack gap="sm">
          <Select
            label="Lead teacher"
            searchable
            clearable
            data-autofocus
            disabled={teachers.isPending}
            data={options}
            value={lead}
            onChange={setLead}
            error={teachers.isError ? 'Teachers could not be loaded' : undefined}
          />
          <MultiSelect
            label="Assistant teachers"
            searchable
            data={options.filter((o) => o.value !== lead)}
            value={assistants}
            onChange={setAssistants}
          />
          {save.error != null && (
            <Alert color="red" role="alert" title="Teachers not saved">
              {actionErrorText(save.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save teachers
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RenameModal({ groupId, name, onClose }: { groupId: string; name: string; onClose: () => void }) {
  const [value, setValue] = useState(name);
  const rename = useGroupCommand((next: string) => groups.update(groupId, { name: next }), 'Group renamed.');
  return (
    <Modal opened onClose={onClose} title="Rename group" centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (value.trim()) rename.mutate(value.trim(), { onSuccess: onClose });
        }}
      >
        <Stack gap="sm">
          <TextInput
            label="Group name"
            required
            data-autofocus
            maxLength={200}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            error={value.trim() ? undefined : 'Name is required'}
          />
          {rename.error != null && (
            <Alert color="red" role="alert" title="Group not renamed">
              {actionErrorText(rename.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={rename.isPending} disabled={!value.trim()}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
