import { Text } from '@mantine/core';
import { useParams, useSearchParams } from 'react-router-dom';
import { viewerTimezone } from '../../../shared/dates';
import { useSession } from '../../../shared/session';
import { useTimetable } from '../api';
import { WeekScreen } from '../components/WeekScreen';
import { mondayOf, todayInZone } from '../week-layout';

/** timetable/:id? — a teacher's or student's week (yours without an id), in your time zone. */
export function TimetablePage() {
  const user = useSession((s) => s.user);
  const timezone = viewerTimezone(user);
  const { id } = useParams();
  const userId = id ?? (user?.id !== undefined ? String(user.id) : '');
  const [params, setParams] = useSearchParams();
  const weekStart = mondayOf(params.get('week') ?? todayInZone(timezone));
  const query = useTimetable(userId, weekStart, timezone);
  const data = query.data;
  return (
    <WeekScreen
      title={data ? `Timetable: ${data.user_name}` : 'Timetable'}
      weekStart={weekStart}
      onWeek={(monday) => setParams(monday ? { week: monday } : {})}
      timezone={timezone}
      query={query}
      lessonsOf={() => data?.lessons}
      empty="No lessons this week."
      extra={
        data?.role === 'teacher' && !data.availability ? (
          <Text size="sm" c="dimmed">
            No availability recorded for this teacher.
          </Text>
        ) : null
      }
    />
  );
}

export default TimetablePage;
