import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatInZone, viewerTimezone } from '../../../shared/dates';
import { notifySuccess } from '../../../shared/notify';
import { useSession } from '../../../shared/session';
import { Icon } from '../../../shared/ui/icons';
import type { UserView } from '../api';
import { saveAvailability, useAvailability } from '../profile-api';
import {
  addWeeks,
  minutesToTime,
  mondayOf,
  slotProblem,
  sortSlots,
  timeToMinutes,
  WEEKDAYS,
  type Slot,
} from '../profile-rules';
import { actionErrorText } from '../../../shared/ui/action-error';

const TYPE = 'default';
const DAY_OPTIONS = WEEKDAYS.map((label, index) => ({ value: String(index), label }));

/**
 * A user's availability (spec §3, §7 users/{id}/availability): the recurring week, or one week's own
 * list (a week without its own list uses the recurring one, and says so). Editable by administrators and
 * by the user themselves; the server refuses everyone else.
 */
export function AvailabilityCard({ user, canEdit }: { user: UserView; canEdit: boolean }) {
  const viewer = useSession((state) => state.user);
  const timezone = viewerTimezone(viewer);
  const [mode, setMode] = useState<'recurring' | 'week'>('recurring');
  const [week, setWeek] = useState(() => mondayOf(new Date()));
  const requestedWeek = mode === 'week' ? week : null;
  const query = useAvailability(user.id, TYPE, requestedWeek);
  const [draft, setDraft] = useState<Slot[] | null>(null);
  const [newSlot, setNewSlot] = useState({ day: '0', start: '09:00', end: '12:00' });
  const [slotError, setSlotError] = useState<string | null>(null);
  const queryClient = useQueryClient();

  const save = useMutation({
    mutationFn: (slots: Slot[]) => saveAvailability(user.id, TYPE, requestedWeek, slots),
    meta: { silentErrors: true },
    onSuccess: async () => {
      notifySuccess(
        requestedWeek ? `Availability for the week of ${requestedWeek} saved.` : 'Availability saved.',
      );
      setDraft(null);
      await queryClient.invalidateQueries({ queryKey: ['users', 'availability', user.id] });
    },
  });

  const shown = draft ?? query.data?.availabilities ?? [];
  const editing = draft !== null;
  const inherited = mode === 'week' && query.data && query.data.week === null;

  const addSlot = () => {
    const start = timeToMinutes(newSlot.start);
    const end = timeToMinutes(newSlot.end);
    if (start === null || end === null) {
      setSlotError('Times are written HH:mm, for example 09:30.');
      return;
    }
    const slot = { day_of_week: Number(newSlot.day), start_minute: start, end_minute: end };
    const problem = slotProblem(slot, shown);
    setSlotError(problem);
    if (!problem) setDraft(sortSlots([...shown, slot]));
  };

  const changeView = (next: () => void) => {
    setDraft(null);
    setSlotError(null);
    save.reset();
    next();
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} fz="h4">
          Availability
        </Title>
        <Group gap="xs">
          <SegmentedControl
            size="xs"
            aria-label="Which availability"
            value={mode}
            onChange={(v) => changeView(() => setMode(v))}
            data={[
              { value: 'recurring', label: 'Every week' },
              { value: 'week', label: 'One week' },
            ]}
          />
          {mode === 'week' && (
            <Group gap={4}>
              <ActionIcon
                variant="subtle"
                aria-label="Previous week"
                onClick={() => changeView(() => setWeek((w) => addWeeks(w, -1)))}
              >
                <Icon name="arrowLeft" size={16} />
              </ActionIcon>
              <Text size="sm" aria-live="polite">
                Week of {formatInZone(`${week}T12:00:00Z`, 'UTC', 'dd.MM.yyyy')}
              </Text>
              <ActionIcon
                variant="subtle"
                aria-label="Next week"
                onClick={() => changeView(() => setWeek((w) => addWeeks(w, 1)))}
              >
                <Icon name="arrowRight" size={16} />
              </ActionIcon>
            </Group>
          )}
        </Group>
      </Group>

      {query.isPending ? (
        <Group gap="xs">
          <Loader size="xs" /> <Text size="sm">Loading availability…</Text>
        </Group>
      ) : query.isError ? (
        <Alert color="red" role="alert" title="Availability could not be loaded">
          {actionErrorText(query.error)}
          <Button size="xs" variant="default" mt="xs" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : (
        <Stack gap="xs">
          {inherited && !editing && (
            <Text size="sm" c="dimmed">
              This week has no list of its own: it follows the every-week availability below.
            </Text>
          )}
          {shown.length === 0 ? (
            <Text size="sm" c="dimmed">
              {editing ? 'No times: saving leaves this user unavailable.' : 'No availability set.'}
            </Text>
          ) : (
            <Table verticalSpacing={4} aria-label="Available times">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Day</Table.Th>
                  <Table.Th>From</Table.Th>
                  <Table.Th>To</Table.Th>
                  {editing && (
                    <Table.Th w={40}>
                      <VisuallyHidden>Remove</VisuallyHidden>
                    </Table.Th>
                  )}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((slot) => (
                  <Table.Tr key={`${slot.day_of_week}-${slot.start_minute}`}>
                    <Table.Td>{WEEKDAYS[slot.day_of_week]}</Table.Td>
                    <Table.Td>{minutesToTime(slot.start_minute)}</Table.Td>
                    <Table.Td>{minutesToTime(slot.end_minute)}</Table.Td>
                    {editing && (
                      <Table.Td>
                        <Tooltip label="Remove">
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Remove ${WEEKDAYS[slot.day_of_week]} ${minutesToTime(slot.start_minute)}–${minutesToTime(slot.end_minute)}`}
                            onClick={() => setDraft(shown.filter((s) => s !== slot))}
                          >
                            ×
                          </ActionIcon>
                        </Tooltip>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {query.data?.updated_at && !editing && (
            <Text size="xs" c="dimmed">
              Last changed {formatInZone(query.data.updated_at, timezone)}
            </Text>
          )}

          {canEdit && !editing && (
            <Group>
              <Button size="xs" variant="light" onClick={() => setDraft(shown)}>
                {inherited ? 'Set this week’s own times' : 'Edit times'}
              </Button>
            </Group>
          )}

          {editing && (
            <Stack gap="xs">
              <Group align="flex-end" gap="xs">
                <Select
                  label="Day"
                  data={DAY_OPTIONS}
                  value={newSlot.day}
                  onChange={(v) => setNewSlot((s) => ({ ...s, day: v ?? '0' }))}
                  allowDeselect={false}
                  w={150}
                />
                <TextInput
                  label="From"
                  type="time"
                  min="07:00"
                  max="21:00"
                  value={newSlot.start}
                  onChange={(e) => {
                    const start = e.currentTarget.value;
                    setNewSlot((s) => ({ ...s, start }));
                  }}
                  w={120}
                />
                <TextInput
                  label="To"
                  type="time"
                  min="07:00"
                  max="21:00"
                  value={newSlot.end}
                  onChange={(e) => {
                    const end = e.currentTarget.value;
                    setNewSlot((s) => ({ ...s, end }));
                  }}
                  w={120}
                />
                <Button size="sm" variant="default" onClick={addSlot}>
                  Add
                </Button>
              </Group>
              {slotError && (
                <Text size="sm" c="red" role="alert">
                  {slotError}
                </Text>
              )}
              {save.isError && (
                <Alert color="red" role="alert" title="Availability was not saved">
                  {actionErrorText(save.error)}
                </Alert>
              )}
              <Group>
                <Button size="xs" onClick={() => save.mutate(shown)} loading={save.isPending}>
                  Save availability
                </Button>
                <Button size="xs" variant="subtle" onClick={() => changeView(() => undefined)}>
                  Cancel
                </Button>
              </Group>
            </Stack>
          )}
        </Stack>
      )}
    </Paper>
  );
}
