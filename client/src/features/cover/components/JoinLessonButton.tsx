import { Button } from '@mantine/core';
import { Link } from 'react-router-dom';

/**
 * "Join" on a lesson's page while its join window is open (10 minutes before the start to the end,
 * decision 0054); the server decides who may join and records it.
 */
export function JoinLessonButton({
  lesson,
}: {
  lesson: { meeting_id: string | null; status: string; starts_at: string; ends_at: string };
}) {
  const now = Date.now();
  const opens = Date.parse(lesson.starts_at) - 10 * 60_000;
  if (!lesson.meeting_id || lesson.status === 'cancelled' || lesson.status === 'unscheduled') return null;
  if (now < opens || now >= Date.parse(lesson.ends_at)) return null;
  return (
    <Button component={Link} to={`/meeting/join/${lesson.meeting_id}`}>
      Join lesson
    </Button>
  );
}
