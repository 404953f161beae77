import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { formatInZone, viewerTimezone } from '../../../shared/dates';
import { useListState } from '../../../shared/routing/list-state';
import { useSession } from '../../../shared/session';
import { actionErrorText } from '../../../shared/ui/action-error';
import { PaginationBar } from '../../../shared/ui/PaginationBar';
import { useTeachersGrid, type TeacherGridRow } from '../api';
import { WeekHeader } from '../components/WeekScreen';
import { mondayOf, todayInZone } from '../week-layout';

const dayOf = (iso: string, zone: string) => formatInZone(iso, zone, 'yyyy-MM-dd');
const timeOf = (iso: string, zone: string) => formatInZone(iso, zone, 'HH:mm');
const span = (i: { starts_at: string; ends_at: string }, zone: string) =>
  `${timeOf(i.starts_at, zone)}–${timeOf(i.ends_at, zone)}`;

/** Booked lessons beside what the teacher asked for: under is a warning, over is an error. */
function BookedBadge({ row }: { row: TeacherGridRow }) {
  const asked = row.requested_number_of_lessons_per_week;
  const color =
    asked === null
      ? 'gray'
      : row.booked_lessons > asked
        ? 'red'
        : row.booked_lessons < asked
          ? 'yellow'
          : 'green';
  return (
    <Badge
      variant="light"
      color={color}
      aria-label={`${row.booked_lessons} booked, ${asked ?? 'none'} requested`}
    >
      {row.booked_lessons} / {asked ?? '–'}
    </Badge>
  );
}

/** One teacher's day: lessons (details when visible, else "busy") and free slots, in time order. */
function DayCell({ row, day, zone }: { row: TeacherGridRow; day: string; zone: string }) {
  const lessons = row.lessons.filter((l) => dayOf(l.starts_at, zone) === day);
  const free = row.free_slots.filter((f) => dayOf(f.starts_at, zone) === day);
  if (lessons.length === 0 && free.length === 0)
    return (
      <Text size="xs" c="dimmed">
        –
      </Text>
    );
  const items = [
    ...lessons.map((l) => ({ at: l.starts_at, key: l.id, lesson: l })),
    ...free.map((f) => ({ at: f.starts_at, key: `free-${f.starts_at}`, free: f })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return (
    <Stack gap={4}>
      {items.map((item) =>
        'lesson' in item && item.lesson ? (
          <Paper
            key={item.key}
            withBorder
            p={4}
            radius="sm"
            bg={item.lesson.clash ? 'red.0' : item.lesson.outside_availability ? 'yellow.0' : 'blue.0'}
          >
            <Text size="xs" fw={600}>
              {span(item.lesson, zone)}
            </Text>
            {item.lesson.visible ? (
              <Anchor component={Link} to={`/lessons/${item.lesson.id}`} size="xs">
                {item.lesson.programme_title ?? 'Lesson'}
              </Anchor>
            ) : (
              <Text size="xs">Busy</Text>
            )}
            <Group gap={4}>
              {item.lesson.cover && (
                <Badge size="xs" variant="outline">
                  Cover
                </Badge>
              )}
              {item.lesson.clash && (
                <Badge size="xs" color="red">
                  Clash
                </Badge>
              )}
              {item.lesson.outside_availability && (
                <Badge size="xs" color="yellow" variant="outline">
                  Outside hours
                </Badge>
              )}
            </Group>
          </Paper>
        ) : 'free' in item && item.free ? (
          <Text key={item.key} size="xs" c="green.9">
            Free {span(item.free, zone)}
          </Text>
        ) : null,
      )}
    </Stack>
  );
}

/**
 * timetables/teachers — teachers × the days of a week in the viewer's zone (decision 0058): lessons,
 * free slots from availability, booked vs requested lessons. Live: lesson changes refresh it.
 */
export function TeachersTimetablePage() {
  const user = useSession((s) => s.user);
  const timezone = viewerTimezone(user);
  const [params, setParams] = useSearchParams();
  const weekStart = mondayOf(params.get('week') ?? todayInZone(timezone));
  const [state, setState] = useListState({ size: 20 });
  const [search, setSearch] = useState(state.q);
  const [debounced] = useDebouncedValue(search, 300);
  useEffect(() => {
    if (debounced !== state.q) setState({ q: debounced });
  }, [debounced, state.q, setState]);
  const query = useTeachersGrid({ weekStart, timezone, q: state.q, page: state.page, size: state.size });
  const data = query.data;
  const onWeek = (monday: string | null) => {
    const next = new URLSearchParams(params);
    if (monday) next.set('week', monday);
    else next.delete('week');
    setParams(next, { replace: true });
  };
  return (
    <Stack gap="md">
      <WeekHeader
        title="Teachers' timetables"
        description="Lessons, free time and booked lessons against what each teacher asked for"
        weekStart={weekStart}
        onWeek={onWeek}
        timezone={timezone}
      />
      <TextInput
        label="Search teachers"
        placeholder="Name or e-mail"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={360}
      />
      {query.isError ? (
        <Alert color="red" role="alert" title="Could not load the timetables">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{actionErrorText(query.error)}</Text>
            <Button size="xs" variant="light" onClick={() => void query.refetch()}>
              Retry
            </Button>
          </Stack>
        </Alert>
      ) : !data ? (
        <Skeleton height={360} radius="md" aria-label="Loading the timetables" />
      ) : data.items.length === 0 ? (
        <Text c="dimmed" size="sm">
          {state.q ? 'No teacher matches the search.' : 'No active teachers.'}
        </Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={1100}>
            <Table
              withTableBorder
              withColumnBorders
              verticalSpacing="xs"
              aria-label={`Teachers, week of ${weekStart}`}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Teacher</Table.Th>
                  <Table.Th scope="col">Booked / requested</Table.Th>
                  {data.days.map((day) => (
                    <Table.Th scope="col" key={day}>
                      {formatInZone(`${day}T12:00:00Z`, 'UTC', 'EEE dd.MM')}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((row) => (
                  <Table.Tr key={row.teacher_id}>
                    <Table.Th scope="row">
                      <Anchor
                        component={Link}
                        to={`/timetable/${row.teacher_id}?week=${weekStart}`}
                        size="sm"
                      >
                        {row.teacher_name}
                      </Anchor>
                      {!row.has_availability && (
                        <Text size="xs" c="dimmed">
                          No availability set
                        </Text>
                      )}
                    </Table.Th>
                    <Table.Td>
                      <BookedBadge row={row} />
                    </Table.Td>
                    {data.days.map((day) => (
                      <Table.Td key={day} valign="top">
                        <DayCell row={row} day={day} zone={timezone} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <PaginationBar
            page={data.page}
            perPage={data.size}
            total={data.total}
            onPageChange={(page) => setState({ page })}
            onPerPageChange={(size) => setState({ size })}
            label="Teachers pages"
          />
        </>
      )}
    </Stack>
  );
}

export default TeachersTimetablePage;
