import { useSearchParams } from 'react-router-dom';
import { viewerTimezone } from '../../../shared/dates';
import { useSession } from '../../../shared/session';
import { useMyWeek } from '../api';
import { WeekScreen } from '../components/WeekScreen';
import { mondayOf, todayInZone } from '../week-layout';

/** my-lessons: the signed-in user's week (lessons taught or covered, or a student's lessons). */
export function MyLessonsPage() {
  const timezone = viewerTimezone(useSession((s) => s.user));
  const [params, setParams] = useSearchParams();
  const weekStart = mondayOf(params.get('week') ?? todayInZone(timezone));
  const query = useMyWeek(weekStart, timezone);
  return (
    <WeekScreen
      title="My lessons"
      description="Your lessons this week; they update as soon as they change."
      weekStart={weekStart}
      onWeek={(monday) => setParams(monday ? { week: monday } : {})}
      timezone={timezone}
      query={query}
      lessonsOf={() => query.data?.items}
      empty="No lessons this week."
    />
  );
}

export default MyLessonsPage;
