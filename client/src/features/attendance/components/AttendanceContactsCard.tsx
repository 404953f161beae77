import {
  Alert,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { ApiError } from '../../../shared/api/client';
import { actionErrorText } from '../../../shared/ui/action-error';
import {
  FREQUENCY_LABELS,
  useAttendanceContactCandidates,
  useAttendanceContacts,
  useSaveAttendanceContacts,
  type AttendanceContact,
  type NotificationFrequency,
} from '../api';
import { contactErrorRow } from '../contacts';

type Row = Pick<
  AttendanceContact,
  'user_id' | 'full_name' | 'email' | 'customer_type' | 'notification_frequency'
>;

const frequencyOptions = Object.entries(FREQUENCY_LABELS).map(([value, label]) => ({ value, label }));
const ROLE_LABELS: Record<string, string> = {
  'super-admin': 'Super system administrator',
  admin: 'System administrator',
  'link-contact': 'Link contact',
  parent: 'Parent or carer',
};
const roleOf = (type: string | null) => (type ? (ROLE_LABELS[type] ?? type) : '');
const sameRows = (a: Row[], b: Row[]) =>
  a.length === b.length &&
  a.every((r, i) => r.user_id === b[i]!.user_id && r.notification_frequency === b[i]!.notification_frequency);

/**
 * A school's attendance contacts (decision 0061, issue 16 item 5): the partner users told live and by
 * e-mail about absences with no reason and about amendments, each with their e-mail frequency. Whoever
 * may change the list (partners with EDIT_ATTENDANCE_CONTACTS for their school, customer editors and
 * attendance staff) edits a draft and saves the whole list; everyone else reads who and how often (not
 * their e-mail addresses). Only the school's partner users who see attendance are offered; a refusal
 * names its row.
 */
export function AttendanceContactsCard({ customerId }: { customerId: string }) {
  const current = useAttendanceContacts(customerId);
  const canEdit = current.data?.can_edit ?? false;
  const candidates = useAttendanceContactCandidates(customerId, canEdit);
  const save = useSaveAttendanceContacts(customerId);
  const saved = useMemo<Row[]>(() => current.data?.contacts ?? [], [current.data]);
  const [draft, setDraft] = useState<Row[] | null>(null);
  const [adding, setAdding] = useState('');
  const [addFrequency, setAddFrequency] = useState<NotificationFrequency>('each-change');
  const rows = draft ?? saved;
  const dirty = draft !== null && !sameRows(draft, saved);

  // A list saved elsewhere (live) replaces an untouched draft.
  useEffect(() => {
    if (draft !== null && sameRows(draft, saved)) setDraft(null);
  }, [saved, draft]);

  const eligible = new Set(candidates.data?.items.map((c) => c.user_id));
  const offered = (candidates.data?.items ?? []).filter((c) => !rows.some((r) => r.user_id === c.user_id));
  const errorText = save.error ? actionErrorText(save.error) : null;
  const errorRow =
    save.error instanceof ApiError && save.error.status === 422
      ? contactErrorRow(save.error.detailText)
      : null;

  const change = (next: Row[]) => {
    save.reset();
    setDraft(next);
  };
  const add = () => {
    const person = candidates.data?.items.find((c) => c.user_id === adding);
    if (!person) return;
    change([...rows, { ...person, notification_frequency: addFrequency }]);
    setAdding('');
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="attendance-contacts-title">
      <Stack gap="sm">
        <div>
          <Title order={2} fz="h4" id="attendance-contacts-title">
            Attendance contacts
          </Title>
          <Text size="sm" c="dimmed">
            Told at once in the portal, and by e-mail, when a pupil is marked absent with no reason and when a
            mark is amended.
          </Text>
        </div>
        {current.isError ? (
          <Alert color="red" role="alert" title="Could not load the attendance contacts">
            {actionErrorText(current.error)}
            <Button size="xs" variant="default" ml="sm" onClick={() => void current.refetch()}>
              Retry
            </Button>
          </Alert>
        ) : current.isPending ? (
          <Skeleton height={80} aria-label="Loading the attendance contacts" />
        ) : (
          <>
            {rows.length === 0 ? (
              <Text size="sm" c="dimmed">
                No attendance contacts yet: nobody at this school is told about absences with no reason.
                {canEdit ? ' Add someone below.' : ''}
              </Text>
            ) : (
              <Table aria-label="Attendance contacts" verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Role</Table.Th>
                    <Table.Th>E-mails</Table.Th>
                    {canEdit && <Table.Th aria-label="Actions" />}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((r, i) => {
                    const refused = errorRow === i;
                    return (
                      <Table.Tr key={r.user_id} bg={refused ? 'var(--mantine-color-red-light)' : undefined}>
                        <Table.Td>
                          <Text size="sm" fw={500}>
                            {r.full_name}
                          </Text>
                          {canEdit && (
                            <Text size="xs" c="dimmed">
                              {r.email}
                            </Text>
                          )}
                          {canEdit && candidates.isSuccess && !eligible.has(r.user_id) && (
                            <Badge color="orange" variant="light" size="sm">
                              No longer sees attendance
                            </Badge>
                          )}
                          {refused && (
                            <Text size="xs" c="red">
                              Not accepted: see the message below
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{roleOf(r.customer_type)}</Text>
                        </Table.Td>
                        <Table.Td>
                          {canEdit ? (
                            <NativeSelect
                              aria-label={`E-mails for ${r.full_name}`}
                              size="xs"
                              value={r.notification_frequency}
                              data={frequencyOptions}
                              onChange={(e) => {
                                const notification_frequency = e.currentTarget.value as NotificationFrequency;
                                change(rows.map((x, j) => (j === i ? { ...x, notification_frequency } : x)));
                              }}
                            />
                          ) : (
                            <Text size="sm">{FREQUENCY_LABELS[r.notification_frequency]}</Text>
                          )}
                        </Table.Td>
                        {canEdit && (
                          <Table.Td>
                            <Button
                              size="xs"
                              variant="subtle"
                              color="red"
                              aria-label={`Remove ${r.full_name}`}
                              onClick={() => change(rows.filter((_, j) => j !== i))}
                            >
                              Remove
                            </Button>
                          </Table.Td>
                        )}
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            )}
            {canEdit ? (
              <>
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    add();
                  }}
                >
                  <Group align="flex-end" gap="xs">
                    <NativeSelect
                      label="Add a contact"
                      description="Users of this school who see attendance"
                      value={adding}
                      onChange={(e) => setAdding(e.currentTarget.value)}
                      disabled={!candidates.isSuccess}
                      data={[
                        {
                          value: '',
                          label: candidates.isPending
                            ? 'Loading…'
                            : candidates.isError
                              ? 'Could not load the school’s users'
                              : offered.length === 0
                                ? 'Nobody else sees attendance'
                                : 'Choose a person',
                        },
                        ...offered.map((c) => ({
                          value: c.user_id,
                          label: `${c.full_name} (${roleOf(c.customer_type) || c.email})`,
                        })),
                      ]}
                    />
                    <NativeSelect
                      label="E-mails"
                      value={addFrequency}
                      onChange={(e) => setAddFrequency(e.currentTarget.value as NotificationFrequency)}
                      data={frequencyOptions}
                    />
                    <Button type="submit" variant="default" disabled={!adding}>
                      Add
                    </Button>
                  </Group>
                </form>
                {errorText && (
                  <Alert color="red" role="alert" title="The contacts were not saved">
                    {errorRow !== null && rows[errorRow] ? `${rows[errorRow].full_name}: ` : ''}
                    {errorText}
                  </Alert>
                )}
                <Group gap="xs">
                  <Button
                    onClick={() =>
                      save.mutate(
                        rows.map((r) => ({
                          user_id: r.user_id,
                          notification_frequency: r.notification_frequency,
                        })),
                        { onSuccess: () => setDraft(null) },
                      )
                    }
                    loading={save.isPending}
                    disabled={!dirty}
                  >
                    Save contacts
                  </Button>
                  {dirty && (
                    <Button
                      variant="subtle"
                      onClick={() => {
                        save.reset();
                        setDraft(null);
                      }}
                    >
                      Discard changes
                    </Button>
                  )}
                </Group>
              </>
            ) : (
              <Text size="xs" c="dimmed">
                Your school&apos;s administrators with “edit attendance contacts” change this list.
              </Text>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
