import {
  Alert,
  Button,
  Group,
  NativeSelect,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { actionErrorText } from '../../../shared/ui/action-error';
import {
  REASON_LABELS,
  reasonOptions,
  useMyStudents,
  usePlannedAbsences,
  useRecordPlannedAbsence,
  useWithdrawPlannedAbsence,
} from '../api';
import { DayInput } from '../../../shared/ui/DayInput';
import { formatInZone, viewerTimezone } from '../../../shared/dates';
import { useSession } from '../../../shared/session';
import { studentLabel } from '../../../shared/student-label';

const day = (d: string) => d.split('-').reverse().join('.');

/**
 * A school's planned absences (decision 0056): tell the provider in advance that a pupil will miss the
 * lessons between two dates; the registers of those days open with the reason filled in.
 */
export function PlannedAbsencesCard({ mayRecord }: { mayRecord: boolean }) {
  const list = usePlannedAbsences();
  const students = useMyStudents(mayRecord);
  const record = useRecordPlannedAbsence();
  const withdraw = useWithdrawPlannedAbsence();
  // Today in the user's timezone (spec §9), not in UTC.
  const today = formatInZone(
    new Date().toISOString(),
    viewerTimezone(useSession((s) => s.user)),
    'yyyy-MM-dd',
  );
  const [draft, setDraft] = useState({
    student_id: '',
    from: today,
    to: today,
    absence_reason: 'medical',
    note: '',
  });
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Title order={2} fz="h4">
          Planned absences
        </Title>
        {mayRecord && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              record.mutate(
                { ...draft, note: draft.note.trim() || undefined },
                { onSuccess: () => setDraft({ ...draft, note: '' }) },
              );
            }}
          >
            <Group align="flex-end" gap="xs">
              <NativeSelect
                label="Student"
                required
                value={draft.student_id}
                onChange={(e) => setDraft({ ...draft, student_id: e.currentTarget.value })}
                data={[
                  { value: '', label: students.isLoading ? 'Loading…' : 'Choose a student' },
                  ...(students.data?.items ?? []).map((s) => ({
                    value: s.id,
                    label: studentLabel({
                      name: s.display_name,
                      school: s.customer_name,
                      year_group: s.year_group,
                    }),
                  })),
                ]}
              />
              <DayInput
                label="From"
                required
                value={draft.from}
                onChange={(value) => setDraft({ ...draft, from: value })}
              />
              <DayInput
                label="To"
                required
                value={draft.to}
                onChange={(value) => setDraft({ ...draft, to: value })}
              />
              <NativeSelect
                label="Reason"
                value={draft.absence_reason}
                onChange={(e) => setDraft({ ...draft, absence_reason: e.currentTarget.value })}
                data={reasonOptions}
              />
              <TextInput
                label="Note"
                value={draft.note}
                onChange={(e) => setDraft({ ...draft, note: e.currentTarget.value })}
              />
              <Button type="submit" loading={record.isPending} disabled={!draft.student_id}>
                Record
              </Button>
            </Group>
            {record.error && (
              <Text size="sm" c="red" role="alert" mt="xs">
                {actionErrorText(record.error)}
              </Text>
            )}
          </form>
        )}
        {list.isError ? (
          <Alert color="red" role="alert">
            Could not load the planned absences: {actionErrorText(list.error)}
          </Alert>
        ) : !list.data ? (
          <Skeleton height={60} aria-label="Loading the planned absences" />
        ) : list.data.items.length === 0 ? (
          <Text size="sm" c="dimmed">
            No planned absences.
          </Text>
        ) : (
          <Table aria-label="Planned absences" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Student</Table.Th>
                <Table.Th>Dates</Table.Th>
                <Table.Th>Reason</Table.Th>
                <Table.Th>Recorded by</Table.Th>
                {mayRecord && <Table.Th />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td>{a.student_name ?? a.student_id}</Table.Td>
                  <Table.Td>
                    {day(a.from)}
                    {a.to !== a.from ? `–${day(a.to)}` : ''}
                  </Table.Td>
                  <Table.Td>
                    {REASON_LABELS[a.absence_reason] ?? a.absence_reason}
                    {a.note && (
                      <Text size="xs" c="dimmed">
                        {a.note}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {a.recorded_by.name}
                    <Text size="xs" c="dimmed">
                      {a.recorded_by.position}
                    </Text>
                  </Table.Td>
                  {mayRecord && (
                    <Table.Td>
                      <Button size="xs" variant="subtle" color="red" onClick={() => withdraw.mutate(a.id)}>
                        Withdraw
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
