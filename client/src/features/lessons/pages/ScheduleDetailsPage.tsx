import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { canModifyProgram } from '../../../app/access';
import { ApiError } from '../../../shared/api/client';
import { viewerTimezone } from '../../../shared/dates';
import { usePermissions, useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { actionErrorText } from '../../../shared/ui/action-error';
import { schedules, useScheduleException, type Schedule } from '../api';
import { ScheduleCard, ruleInWords } from '../components/ScheduleCard';
import { DayInput } from '../../../shared/ui/DayInput';

function ExceptionForm({ schedule }: { schedule: Schedule }) {
  const add = useScheduleException(schedule.id);
  const [date, setDate] = useState('');
  const [action, setAction] = useState<'skip' | 'move'>('skip');
  const [start, setStart] = useState(schedule.local_start);
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="form"
      aria-label="Skip or move one date"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate({ local_date: date, action, new_local_start: action === 'move' ? start : null });
      }}
    >
      <Stack gap="sm">
        <Text fw={600}>Skip or move one date</Text>
        <Text size="sm" c="dimmed">
          Times are wall-clock times in {schedule.timezone}. Lessons rescheduled on their own are not changed.
        </Text>
        <Group align="flex-end">
          <DayInput label="Date" required value={date} onChange={(value) => setDate(value)} />
          <SegmentedControl
            aria-label="Skip or move"
            value={action}
            onChange={(v) => setAction(v)}
            data={[
              { value: 'skip', label: 'Skip' },
              { value: 'move', label: 'Move' },
            ]}
          />
          {action === 'move' && (
            <TextInput
              type="time"
              label="New start"
              required
              value={start}
              onChange={(e) => setStart(e.currentTarget.value)}
            />
          )}
          <Button type="submit" loading={add.isPending}>
            Save
          </Button>
        </Group>
        {add.error && (
          <Alert color="red" role="alert">
            {actionErrorText(add.error)}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

/** scheduling/:id: one schedule, its next lessons, clashes and exceptions. */
export function ScheduleDetailsPage() {
  const { id = '' } = useParams();
  const query = schedules.useOne(id);
  const timezone = viewerTimezone(useSession((s) => s.user));
  const mayManage = canModifyProgram(usePermissions());
  const schedule = query.data;
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  return (
    <Stack gap="md">
      <title>{`Schedule · ${PRODUCT_NAME}`}</title>
      <div>
        <Anchor component={Link} to="/scheduling" size="sm">
          ← Scheduling
        </Anchor>
        <Title order={1} fz="h2">
          {schedule ? ruleInWords(schedule) : 'Schedule'}
        </Title>
      </div>
      {query.isError ? (
        <Alert
          color="red"
          role="alert"
          title={notFound ? 'Schedule not found' : 'Could not load the schedule'}
        >
          {notFound ? 'This schedule does not exist.' : actionErrorText(query.error)}
        </Alert>
      ) : !schedule ? (
        <Skeleton height={200} radius="md" aria-label="Loading schedule" />
      ) : (
        <>
          <ScheduleCard
            schedule={schedule}
            timezone={timezone}
            title={<Text fw={600}>Rule and lessons</Text>}
          />
          {schedule.exceptions.length > 0 && (
            <Text size="sm">
              Exceptions:{' '}
              {schedule.exceptions
                .map((e) =>
                  e.action === 'skip' ? `${e.local_date} skipped` : `${e.local_date} at ${e.new_local_start}`,
                )
                .join('; ')}
            </Text>
          )}
          <Anchor component={Link} to={`/programmes/${schedule.programme_id}/schedules`} size="sm">
            All schedules of this programme
          </Anchor>
          {mayManage && <ExceptionForm schedule={schedule} />}
        </>
      )}
    </Stack>
  );
}

export default ScheduleDetailsPage;
