import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { canModifyProgram } from '../../../app/access';
import { usePermissions } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { ConfirmDialog } from '../../../shared/ui/ConfirmDialog';
import { ProgrammeEditModal } from './ProgrammeEditModal';
import {
  ACTION_LABELS,
  enrolments,
  groups,
  programmes,
  STATUS_COLOURS,
  useGroup,
  useProgrammeAction,
  type GroupListItem,
  type ProgrammeAction,
} from '../api';

/** `programmes/details/:id`: the programme's fields, its status actions, groups and enrolments. */
export function ProgrammeDetailsPage() {
  const { id = '' } = useParams();
  const permissions = usePermissions();
  const mayManage = canModifyProgram(permissions);
  const programme = programmes.useOne(id, { silentErrors: true });
  const groupList = groups.useList(
    { page: 1, size: 100, programme_id: id },
    { enabled: programme.isSuccess },
  );
  const enrolmentList = enrolments.useList(
    { page: 1, size: 100, programme_id: id },
    { enabled: programme.isSuccess },
  );
  const act = useProgrammeAction(id);
  const [asking, setAsking] = useState<ProgrammeAction | null>(null);
  const [reason, setReason] = useState('');
  const [editing, setEditing] = useState(false);

  if (programme.isPending) return <Skeleton height={200} aria-label="Loading the programme" />;
  if (programme.isError)
    return (
      <Alert color="gray" title="Programme not found">
        <Anchor component={Link} to="/programmes">
          Back to programmes
        </Anchor>
      </Alert>
    );
  const p = programme.data;
  const fields: [string, string][] = [
    ['School', p.customer_name ?? p.customer_id],
    ['Kind', p.kind === 'lesson' ? 'Lessons' : 'Mentoring sessions'],
    ['Start date', p.start_date],
    ['End date', p.end_date ?? 'Open'],
    ['Time zone', p.timezone],
  ];
  return (
    <Stack gap="lg">
      <title>{`${p.title} · ${PRODUCT_NAME}`}</title>
      <Anchor component={Link} to="/programmes" size="sm">
        ← Programmes
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1}>{p.title}</Title>
          <Group gap="xs">
            <Badge variant="light" color={STATUS_COLOURS[p.status] ?? 'gray'}>
              {p.status}
            </Badge>
            {p.source_programme_id && (
              <Anchor component={Link} to={`/programmes/details/${p.source_programme_id}`} size="sm">
                Copied from another programme
              </Anchor>
            )}
          </Group>
        </Stack>
        {mayManage && (
          <Group gap="xs">
            {(p.actions as ProgrammeAction[]).map((action) => (
              <Button
                key={action}
                variant={action === 'cancel' ? 'outline' : 'default'}
                color={action === 'cancel' ? 'red' : undefined}
                onClick={() => {
                  act.reset();
                  setReason('');
                  setAsking(action);
                }}
              >
                {ACTION_LABELS[action]}
              </Button>
            ))}
            {!['completed', 'cancelled'].includes(p.status) && (
              <Button variant="default" onClick={() => setEditing(true)}>
                Edit
              </Button>
            )}
            <Button variant="default" component={Link} to={`/programmes/add?sourceProgramId=${p.id}`}>
              Copy
            </Button>
          </Group>
        )}
      </Group>
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {fields.map(([label, value]) => (
            <div key={label}>
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text size="sm">{value}</Text>
            </div>
          ))}
        </SimpleGrid>
      </Card>

      <Card withBorder p={0}>
        <Group justify="space-between" p="md" pb={0}>
          <Title order={2} fz="h4">
            Groups
          </Title>
          {mayManage && (
            <Button size="xs" component={Link} to={`/programmes/${p.id}/groups/add`}>
              Add group
            </Button>
          )}
        </Group>
        {groupList.isPending ? (
          <Skeleton height={60} m="md" />
        ) : groupList.isError ? (
          <Alert color="red" m="md" title="Groups could not be loaded">
            <Button size="xs" variant="default" onClick={() => void groupList.refetch()}>
              Retry
            </Button>
          </Alert>
        ) : groupList.data.items.length === 0 ? (
          <Text p="md" c="dimmed">
            No groups yet.
          </Text>
        ) : (
          <Table aria-label="Groups of this programme" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Teachers</Table.Th>
                <Table.Th>Students today</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {groupList.data.items.map((g) => (
                <GroupRow key={g.id} group={g} />
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>

      <Card withBorder p={0}>
        <Title order={2} fz="h4" p="md" pb={0}>
          Enrolments
        </Title>
        {enrolmentList.isPending ? (
          <Skeleton height={60} m="md" />
        ) : enrolmentList.isError ? (
          <Alert color="red" m="md" title="Enrolments could not be loaded">
            <Button size="xs" variant="default" onClick={() => void enrolmentList.refetch()}>
              Retry
            </Button>
          </Alert>
        ) : enrolmentList.data.items.length === 0 ? (
          <Text p="md" c="dimmed">
            No enrolments yet.
          </Text>
        ) : (
          <Table aria-label="Enrolments in this programme" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Student</Table.Th>
                <Table.Th>Dates</Table.Th>
                <Table.Th>Setting</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {enrolmentList.data.items.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/users/${e.student_id}/enrolment`}>
                      {e.student_name ?? e.student_id}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    {e.start_date} – {e.end_date ?? 'open'}
                  </Table.Td>
                  <Table.Td>{e.setting}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATUS_COLOURS[e.status] ?? 'gray'}>
                      {e.status}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>

      {editing && <ProgrammeEditModal programme={p} onClose={() => setEditing(false)} />}
      <ConfirmDialog
        opened={asking !== null}
        title={asking ? `${ACTION_LABELS[asking]}?` : ''}
        message={`“${p.title}” is ${p.status}.`}
        confirmLabel={asking ? ACTION_LABELS[asking] : ''}
        danger={asking === 'cancel'}
        pending={act.isPending}
        error={act.error}
        onClose={() => setAsking(null)}
        onConfirm={() =>
          asking &&
          act.mutate(
            { action: asking, reason: reason.trim() || undefined },
            { onSuccess: () => setAsking(null) },
          )
        }
      >
        <Textarea
          label="Reason (optional)"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
        />
      </ConfirmDialog>
    </Stack>
  );
}

/** One group of the programme: its teachers (lead first) and today's students, by name. */
function GroupRow({ group }: { group: GroupListItem }) {
  const detail = useGroup(group.id);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: detail.data?.timezone ?? 'UTC' }).format(
    new Date(),
  );
  const members = (detail.data?.students ?? []).filter(
    (m) => m.from <= today && (m.to === null || m.to >= today),
  );
  const teachers = detail.data?.teachers ?? [];
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={`/groups/${group.id}`}>
          {group.name}
        </Anchor>
      </Table.Td>
      <Table.Td>
        {detail.isPending
          ? (group.lead_teacher_name ?? '…')
          : teachers.length === 0
            ? '—'
            : teachers
                .map((t) => `${t.name ?? t.teacher_id}${t.role === 'lead' ? ' (lead)' : ''}`)
                .join(', ')}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{group.student_count}</Text>
        {members.length > 0 && (
          <Text size="xs" c="dimmed">
            {members.map((m) => m.name ?? m.student_id).join(', ')}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
