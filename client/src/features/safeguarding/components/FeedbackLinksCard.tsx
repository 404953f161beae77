import { Badge, Button, Card, Group, NumberInput, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useAreaCommand } from '../../../shared/api/resource';
import { formatInZone } from '../../../shared/dates';
import type { IncidentStatus } from '../api';
import { feedbackApi, type FeedbackLinkStatus } from '../feedback-api';
import { SAFEGUARDING_KEY } from '../hooks';

const STATUS_COLOURS: Record<FeedbackLinkStatus, string> = {
  issued: 'blue',
  opened: 'violet',
  used: 'teal',
  expired: 'gray',
  revoked: 'red',
};
const ISSUE_FROM: readonly IncidentStatus[] = ['partner_informed', 'partner_feedback'];
const DEFAULT_HOURS = 72;

/**
 * Leads mail a partner a single-use link to give feedback on this incident, see each link's state
 * (every open is recorded) and revoke one (docs/decisions/0030-partner-feedback-links.md).
 */
export function FeedbackLinksCard({
  incidentId,
  status,
  timezone,
}: {
  incidentId: string;
  status: IncidentStatus;
  timezone: string;
}) {
  const key = [SAFEGUARDING_KEY, 'feedback-links', incidentId];
  const links = useQuery({ queryKey: key, queryFn: () => feedbackApi.list(incidentId) });
  const mayIssue = ISSUE_FROM.includes(status);
  const recipients = useQuery({
    queryKey: [...key, 'recipients'],
    queryFn: () => feedbackApi.recipients(incidentId),
    enabled: mayIssue,
  });
  const [email, setEmail] = useState('');
  const [hours, setHours] = useState<number>(DEFAULT_HOURS);
  const [error, setError] = useState<string | null>(null);
  const issue = useAreaCommand(SAFEGUARDING_KEY, (to: string) => feedbackApi.issue(incidentId, to, hours), {
    success: (_, to) => `Feedback link sent to ${to}`,
    also: () => setEmail(''),
  });
  const revoke = useAreaCommand(
    SAFEGUARDING_KEY,
    (linkId: string) => feedbackApi.revoke(incidentId, linkId),
    { success: 'Link revoked' },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email) return setError('Choose who at the school receives the link');
    setError(null);
    issue.mutate(email.trim());
  };

  return (
    <Card withBorder radius="md">
      <Title order={2} fz="h5" mb={4}>
        Feedback links
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Mail a partner of the student&apos;s school a link to give feedback on this incident only. It works
        once, expires, and every open is recorded.
      </Text>
      {mayIssue ? (
        <form onSubmit={submit} noValidate aria-label="Issue a feedback link">
          <Stack gap="xs" mb="md">
            <Select
              label="Send to"
              placeholder={recipients.isPending ? 'Loading the school’s contacts…' : 'Choose a contact'}
              searchable
              data={(recipients.data?.items ?? []).map((r) => ({
                value: r.email,
                label: `${r.full_name}${r.customer_type ? ` (${r.customer_type.replace('-', ' ')})` : ''} · ${r.customer_name ?? ''} · ${r.email}`,
              }))}
              value={email || null}
              onChange={(value) => setEmail(value ?? '')}
              nothingFoundMessage="No contact matches"
              error={
                error ??
                (recipients.data && recipients.data.items.length === 0
                  ? 'No one at this school has a partner account yet'
                  : undefined)
              }
              size="sm"
            />
            <Group align="end" gap="xs">
              <NumberInput
                label="Expires after (hours)"
                min={1}
                max={720}
                value={hours}
                onChange={(v) => setHours(typeof v === 'number' ? v : DEFAULT_HOURS)}
                size="sm"
                w={170}
              />
              <Button type="submit" size="sm" loading={issue.isPending}>
                Send link
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Text size="sm" mb="md">
          {status === 'closed'
            ? 'The incident is closed: no new links.'
            : 'Record that the partner was informed first; then you can send a feedback link.'}
        </Text>
      )}
      {links.isPending ? (
        <Skeleton height={48} />
      ) : (
        <Stack gap="xs" aria-label="Issued feedback links">
          {(links.data?.items ?? []).length === 0 && (
            <Text size="sm" c="dimmed">
              No links yet.
            </Text>
          )}
          {(links.data?.items ?? []).map((l) => (
            <Group key={l.id} justify="space-between" wrap="nowrap" gap="xs" data-testid="feedback-link">
              <div>
                <Group gap={6}>
                  <Text size="sm" fw={500}>
                    {l.email}
                  </Text>
                  <Badge size="sm" color={STATUS_COLOURS[l.status]}>
                    {l.status}
                  </Badge>
                  {status === 'closed' && (l.status === 'issued' || l.status === 'opened') && (
                    // Issue 18: a closed incident's open links are flagged; the lead decides to revoke.
                    <Badge size="sm" color="orange" variant="outline">
                      still open after closing
                    </Badge>
                  )}
                </Group>
                <Text size="xs" c="dimmed">
                  Sent {formatInZone(l.issued_at, timezone)} · expires {formatInZone(l.expires_at, timezone)}
                  {l.opens.length
                    ? ` · opened ${l.opens.length}× (last ${formatInZone(l.opens.at(-1), timezone)})`
                    : ''}
                  {l.used_at ? ` · feedback ${formatInZone(l.used_at, timezone)}` : ''}
                </Text>
              </div>
              {(l.status === 'issued' || l.status === 'opened') && (
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  loading={revoke.isPending && revoke.variables === l.id}
                  onClick={() => revoke.mutate(l.id)}
                >
                  Revoke
                </Button>
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}
