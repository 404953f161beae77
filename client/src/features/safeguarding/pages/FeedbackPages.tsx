import { Alert, Badge, Button, Group, Paper, Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../../../shared/api/client';
import { formatInZone } from '../../../shared/dates';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { StatusCard } from '../../errors/pages/StatusCard';
import {
  FEEDBACK_INVALID_TOKEN_PATH,
  FEEDBACK_MAX_LENGTH,
  FEEDBACK_SUBMITTED_PATH,
  feedbackApi,
  feedbackConfirmPath,
  isDeadLink,
} from '../feedback-api';

/** The holder has no account: show times in the browser's own zone. */
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'Europe/London';

const UNREACHABLE = 'The portal could not be reached. Check your connection and try again.';
const failureText = (error: unknown) =>
  error instanceof ApiError && !error.isNetworkError && !error.isServerError
    ? (error.detailText ?? 'The request was refused.')
    : UNREACHABLE;

function Frame({ children }: { children: ReactNode }) {
  return (
    <Paper withBorder radius="lg" p="xl" shadow="sm" w="100%" maw={560}>
      <title>{`Safeguarding feedback · ${PRODUCT_NAME}`}</title>
      {children}
    </Paper>
  );
}

/**
 * /safeguarding-incident/feedback/:token: the partner's feedback form. Each load records an open on the
 * server, so the summary is fetched once per visit (no refetch on focus or retry).
 */
export function FeedbackPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [feedback, setFeedback] = useState('');
  const [error, setError] = useState<string | null>(null);
  const summary = useQuery({
    queryKey: ['safeguarding-feedback', token],
    queryFn: () => feedbackApi.open(token),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    meta: { silentErrors: true },
  });
  const submit = useMutation({
    mutationFn: (text: string) => feedbackApi.submit(token, text),
    meta: { silentErrors: true },
    onSuccess: (sent) =>
      navigate(feedbackConfirmPath(sent.feedback_id, sent.confirm_token), { replace: true }),
  });

  if (
    !token ||
    (summary.isError && isDeadLink(summary.error)) ||
    (submit.isError && isDeadLink(submit.error))
  )
    return <Navigate to={FEEDBACK_INVALID_TOKEN_PATH} replace />;
  if (summary.isPending)
    return (
      <Frame>
        <Stack aria-busy="true" aria-label="Loading">
          <Skeleton height={28} width="60%" />
          <Skeleton height={120} />
        </Stack>
      </Frame>
    );
  if (summary.isError)
    return (
      <Frame>
        <Alert color="red" title="The feedback form could not be loaded" role="alert">
          {failureText(summary.error)}
        </Alert>
      </Frame>
    );

  const zone = browserZone();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const text = feedback.trim();
    if (!text) return setError('Please write your feedback');
    if (text.length > FEEDBACK_MAX_LENGTH)
      return setError(`Feedback must be at most ${FEEDBACK_MAX_LENGTH.toLocaleString('en-GB')} characters`);
    setError(null);
    submit.mutate(text);
  };
  return (
    <Frame>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <div>
            <Title order={1} fz="h2">
              Feedback on a safeguarding incident
            </Title>
            <Text c="dimmed" fz="sm" mt={4}>
              We informed you of this incident. Please tell us what you know or have done. This link works
              once and expires {formatInZone(summary.data.expires_at, zone)}.
            </Text>
          </div>
          <Stack gap={4} aria-label="The incident">
            <Text fz="sm">
              <b>Student{summary.data.students.length === 1 ? '' : 's'}:</b>{' '}
              {summary.data.students.join(', ')}
            </Text>
            <Text fz="sm">
              <b>Happened:</b> {formatInZone(summary.data.occurred_at, zone)}
            </Text>
            <Group gap={6}>
              {summary.data.types.map((t) => (
                <Badge key={t} variant="outline" color="gray" radius="sm">
                  {t}
                </Badge>
              ))}
            </Group>
          </Stack>
          {submit.isError && (
            <Alert color="red" title="Your feedback was not recorded" role="alert">
              {failureText(submit.error)}
            </Alert>
          )}
          <Textarea
            label="Your feedback"
            required
            autosize
            minRows={6}
            maxRows={16}
            value={feedback}
            onChange={(e) => setFeedback(e.currentTarget.value)}
            error={error}
            description={`${feedback.length.toLocaleString('en-GB')} / ${FEEDBACK_MAX_LENGTH.toLocaleString('en-GB')}`}
          />
          <Button type="submit" loading={submit.isPending} size="md">
            Send feedback
          </Button>
        </Stack>
      </form>
    </Frame>
  );
}

/**
 * /safeguarding-incident/feedback/:feedbackId/confirm/:token: the receipt, showing what was sent while
 * its short-lived token lasts; afterwards the generic "submitted" page.
 */
export function FeedbackConfirmPage() {
  const { feedbackId = '', token = '' } = useParams();
  const receipt = useQuery({
    queryKey: ['safeguarding-feedback-receipt', feedbackId, token],
    queryFn: () => feedbackApi.receipt(feedbackId, token),
    enabled: feedbackId !== '' && token !== '',
    retry: false,
    refetchOnWindowFocus: false,
    meta: { silentErrors: true },
  });
  if (!token || (receipt.isError && isDeadLink(receipt.error)) || (receipt.isError && isBadId(receipt.error)))
    return <Navigate to={FEEDBACK_SUBMITTED_PATH} replace />;
  if (receipt.isPending)
    return (
      <Frame>
        <Skeleton height={120} aria-label="Loading" />
      </Frame>
    );
  if (receipt.isError)
    return (
      <Frame>
        <Alert color="red" title="The receipt could not be loaded" role="alert">
          {failureText(receipt.error)}
        </Alert>
      </Frame>
    );
  const zone = browserZone();
  const r = receipt.data;
  return (
    <Frame>
      <Stack gap="md">
        <div>
          <Text size="xs" fw={700} tt="uppercase" c="var(--mantine-primary-color-filled)">
            Received
          </Text>
          <Title order={1} fz="h2">
            Thank you, your feedback was recorded
          </Title>
          <Text c="dimmed" fz="sm" mt={4}>
            The safeguarding lead sees it with the incident ({r.types.join(', ')}, happened{' '}
            {formatInZone(r.occurred_at, zone)}). The link you used no longer works.
          </Text>
        </div>
        <Text fz="sm">
          <b>Reference:</b> <span data-testid="feedback-reference">{r.feedback_id}</span>
        </Text>
        <Text fz="sm">
          <b>Sent:</b> {formatInZone(r.submitted_at, zone)}
        </Text>
        <Paper withBorder p="md" radius="md" bg="var(--mantine-color-gray-0)">
          <Text fz="sm" style={{ whiteSpace: 'pre-wrap' }} aria-label="Your feedback">
            {r.feedback}
          </Text>
        </Paper>
        <Text c="dimmed" fz="xs">
          This receipt is available for a short while only; keep the reference if you need it.
        </Text>
      </Stack>
    </Frame>
  );
}

const isBadId = (error: unknown) => error instanceof ApiError && error.status === 400;

/** /safeguarding-incident/feedback/submitted: the generic thank-you (the receipt has gone). */
export function FeedbackSubmittedPage() {
  return (
    <StatusCard
      code="Safeguarding feedback"
      title="Your feedback was received"
      message="Thank you. The safeguarding lead has your feedback with the incident. You can close this page."
      actionLabel="Go to sign in"
      actionTo="/login"
    />
  );
}
