import {
  Alert,
  Anchor,
  Button,
  Chip,
  Group,
  Modal,
  NumberInput,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { canModifyProgram } from '../../../app/access';
import { viewerTimezone } from '../../../shared/dates';
import { usePermissions, useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { actionErrorText } from '../../../shared/ui/action-error';
import {
  useAddSchedule,
  useProgrammeGroups,
  useProgrammeSchedules,
  useTeacherOptions,
  type ScheduleInput,
} from '../api';
import { todayInZone } from '../week-layout';
import { ScheduleCard } from '../components/ScheduleCard';
import { DayInput } from '../../../shared/ui/DayInput';

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function AddScheduleModal({ programmeId, onClose }: { programmeId: string; onClose: () => void }) {
  const timezone = viewerTimezone(useSession((s) => s.user));
  const add = useAddSchedule(programmeId);
  const groups = useProgrammeGroups(programmeId);
  const teachers = useTeacherOptions();
  const [draft, setDraft] = useState<ScheduleInput>({
    group_id: '',
    teacher_id: '',
    timezone,
    weekdays: [1],
    local_start: '09:00',
    duration_minutes: 60,
    interval_weeks: 1,
    valid_from: todayInZone(timezone),
    valid_until: null,
  });
  const [result, setResult] = useState<string | null>(null);
  const set = <K extends keyof ScheduleInput>(key: K, value: ScheduleInput[K]) =>
    setDraft({ ...draft, [key]: value });
  return (
    <Modal opened onClose={onClose} title="Add a schedule" size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate(draft, {
            onSuccess: (r) =>
              setResult(
                `Planned ${r.planned} lesson${r.planned === 1 ? '' : 's'}` +
                  (r.conflicts.length ? `; ${r.conflicts.length} clashed and were not planned.` : '.'),
              ),
          });
        }}
      >
        <Stack>
          {groups.isError ? (
            <TextInput
              label="Group id"
              required
              value={draft.group_id}
              onChange={(e) => set('group_id', e.currentTarget.value)}
            />
          ) : (
            <Select
              label="Group"
              required
              placeholder={groups.isLoading ? 'Loading groups…' : 'Choose a group'}
              value={draft.group_id || null}
              onChange={(v) => set('group_id', v ?? '')}
              data={groups.data ?? []}
            />
          )}
          <Select
            label="Teacher"
            required
            searchable
            placeholder={teachers.isLoading ? 'Loading teachers…' : 'Choose a teacher'}
            value={draft.teacher_id || null}
            onChange={(v) => set('teacher_id', v ?? '')}
            data={teachers.data ?? []}
          />
          <div>
            <Text size="sm" fw={500} id="weekdays-label">
              Days
            </Text>
            <Chip.Group
              multiple
              value={draft.weekdays.map(String)}
              onChange={(v) => set('weekdays', v.map(Number))}
            >
              <Group gap={6} role="group" aria-labelledby="weekdays-label">
                {DAYS.map((d, i) => (
                  <Chip key={d} value={String(i + 1)} size="sm">
                    {d}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
          </div>
          <Group grow>
            <TextInput
              type="time"
              label="Start"
              required
              value={draft.local_start}
              onChange={(e) => set('local_start', e.currentTarget.value)}
            />
            <NumberInput
              label="Minutes"
              min={5}
              max={720}
              value={draft.duration_minutes}
              onChange={(v) => set('duration_minutes', Number(v))}
            />
            <NumberInput
              label="Every … weeks"
              min={1}
              max={52}
              value={draft.interval_weeks ?? 1}
              onChange={(v) => set('interval_weeks', Number(v))}
            />
          </Group>
          <TextInput
            label="Time zone"
            required
            value={draft.timezone}
            onChange={(e) => set('timezone', e.currentTarget.value)}
          />
          <Group grow>
            <DayInput
              label="From"
              required
              value={draft.valid_from}
              onChange={(value) => set('valid_from', value)}
            />
            <DayInput
              label="Until (optional)"
              value={draft.valid_until ?? ''}
              onChange={(value) => set('valid_until', value || null)}
            />
          </Group>
          {add.error && (
            <Alert color="red" role="alert">
              {actionErrorText(add.error)}
            </Alert>
          )}
          {result && (
            <Alert color="green" role="status">
              {result}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" loading={add.isPending} disabled={result !== null}>
              Add schedule
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** programmes/:id/schedules: a programme's weekly schedules, their next lessons and clashes. */
export function ProgrammeSchedulesPage() {
  const { id = '' } = useParams();
  const query = useProgrammeSchedules(id);
  const mayManage = canModifyProgram(usePermissions());
  const timezone = viewerTimezone(useSession((s) => s.user));
  const [adding, setAdding] = useState(false);
  const items = query.data?.items;
  return (
    <Stack gap="md">
      <title>{`Programme schedules · ${PRODUCT_NAME}`}</title>
      <div>
        <Anchor component={Link} to={`/programmes/details/${id}`} size="sm">
          ← Programme
        </Anchor>
        <Group justify="space-between" align="flex-end">
          <Title order={1} fz="h2">
            Schedules
          </Title>
          {mayManage && <Button onClick={() => setAdding(true)}>Add schedule</Button>}
        </Group>
      </div>
      {query.isError ? (
        <Alert color="red" role="alert" title="Could not load the schedules">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{actionErrorText(query.error)}</Text>
            <Button size="xs" variant="light" onClick={() => void query.refetch()}>
              Retry
            </Button>
          </Stack>
        </Alert>
      ) : !items ? (
        <Skeleton height={160} radius="md" aria-label="Loading schedules" />
      ) : items.length === 0 ? (
        <Text c="dimmed">No schedules yet.</Text>
      ) : (
        items.map((s) => <ScheduleCard key={s.id} schedule={s} timezone={timezone} />)
      )}
      {adding && <AddScheduleModal programmeId={id} onClose={() => setAdding(false)} />}
    </Stack>
  );
}

export default ProgrammeSchedulesPage;
