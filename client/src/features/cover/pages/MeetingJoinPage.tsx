import { Alert, Anchor, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { ApiError } from '../../../shared/api/client';
import { useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { actionErrorText } from '../../../shared/ui/action-error';
import { joinMeeting } from '../api';

/**
 * meeting/join/:meetingId: records the join (the server's JoinLinkUsed) and sends the browser to the
 * lesson's meeting; outside the window or without permission it shows the server's detail.
 */
export function MeetingJoinPage() {
  const { meetingId = '' } = useParams();
  const location = useLocation();
  const token = useSession((s) => s.token);
  const [error, setError] = useState<Error | null>(null);

  useEffect(() => {
    if (!token || !meetingId) return;
    let cancelled = false;
    joinMeeting(meetingId).then(
      (answer) => {
        if (!cancelled) window.location.assign(answer.url);
      },
      (e: unknown) => {
        if (!cancelled) setError(e instanceof Error ? e : new Error(String(e)));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [meetingId, token]);

  const status = error instanceof ApiError ? error.status : null;
  return (
    <Stack gap="md" maw={520} mx="auto" mt="xl">
      <title>{`Join a meeting · ${PRODUCT_NAME}`}</title>
      <Title order={1} fz="h2">
        Join the lesson
      </Title>
      {!token ? (
        <Alert color="blue" title="Sign in to join">
          <Text size="sm">
            Please{' '}
            <Anchor component={Link} to="/login" state={{ from: location.pathname }}>
              sign in
            </Anchor>{' '}
            first; you will come back here.
          </Text>
        </Alert>
      ) : error ? (
        <Alert
          color={status === 409 ? 'orange' : 'red'}
          role="alert"
          title={
            status === 409
              ? 'Not open for joining'
              : status === 403
                ? 'You cannot join this lesson'
                : status === 404
                  ? 'Meeting not found'
                  : 'Could not join'
          }
        >
          <Stack gap="xs">
            <Text size="sm">{actionErrorText(error)}</Text>
            <Anchor component={Link} to="/my-lessons" size="sm">
              ← Back to my lessons
            </Anchor>
          </Stack>
        </Alert>
      ) : (
        <Stack align="center" gap="xs" role="status" aria-live="polite">
          <Loader />
          <Text>Joining…</Text>
        </Stack>
      )}
    </Stack>
  );
}

export default MeetingJoinPage;
