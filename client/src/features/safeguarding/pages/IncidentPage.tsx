import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  List,
  Skeleton,
  Stack,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { canAccessSafeguarding, isSafeguardingLead } from '../../../app/access';
import { ApiError } from '../../../shared/api/client';
import { notifyError } from '../../../shared/notify';
import { formatInZone, viewerTimezone, DATE_FORMAT } from '../../../shared/dates';
import { usePermissions, useSession } from '../../../shared/session';
import { studentLabel } from '../../../shared/student-label';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { safeguardingApi, type ChronologyEntry, type IncidentDetails } from '../api';
import { RiskBadge, StatusBadge } from '../components/IncidentBadges';
import { FeedbackLinksCard } from '../components/FeedbackLinksCard';
import { ClaimButton, ClaimedBy, ViewerAvatars } from '../components/IncidentPeople';
import { WorkflowPanel } from '../components/WorkflowPanel';
import { SAFEGUARDING_KEY, useIncident } from '../hooks';
import { useIncidentViewers, useViewingIncident } from '../presence';

const CollabEditor = lazy(() => import('../../../shared/collab/CollabEditor'));

/** One incident (route safeguarding-incidents/:id): facts, co-edited write-up, next steps, chronology. */
export function IncidentPage({ partnerView = false }: { partnerView?: boolean }) {
  const { id = '' } = useParams();
  const incident = useIncident(id);
  const back = partnerView ? '/my-safeguarding-incidents' : '/safeguarding-incidents';

  if (incident.isPending)
    return (
      <Stack aria-busy="true" aria-label="Loading the incident">
        <Skeleton height={40} width="50%" />
        <Skeleton height={200} />
      </Stack>
    );
  if (incident.isError) {
    const notFound =
      incident.error instanceof ApiError && (incident.error.status === 404 || incident.error.status === 400);
    return (
      <Alert
        color={notFound ? 'gray' : 'red'}
        title={notFound ? 'Incident not found' : 'The incident could not be loaded'}
      >
        <Anchor component={Link} to={back}>
          Back to safeguarding incidents
        </Anchor>
      </Alert>
    );
  }
  return <IncidentView incident={incident.data} partnerView={partnerView} back={back} />;
}

function IncidentView({
  incident,
  partnerView,
  back,
}: {
  incident: IncidentDetails;
  partnerView: boolean;
  back: string;
}) {
  const user = useSession((s) => s.user);
  const permissions = usePermissions();
  const timezone = viewerTimezone(user);
  const lead = isSafeguardingLead(permissions);
  const meId = user ? String(user.id) : undefined;
  const triage = !partnerView && canAccessSafeguarding(permissions);
  // Others with safeguarding access see on their board that this user has the incident open.
  useViewingIncident(incident.id, triage);
  const others = useIncidentViewers(incident.id, meId);
  const closed = incident.status === 'closed';
  // The server keeps a closed incident's write-up read-only until it is reopened.
  const mayWrite = !partnerView && !closed && (lead || incident.reporter.id === user?.id);
  const students = incident.students.map((s) => s.name).join(', ');
  const studentsTold = incident.students.map(studentLabel).join('; ');

  return (
    <Stack gap="lg">
      <title>{`Incident: ${students} · ${PRODUCT_NAME}`}</title>
      <Anchor component={Link} to={back} size="sm">
        ← Safeguarding incidents
      </Anchor>
      <div>
        <Group gap="xs" mb={6}>
          <StatusBadge status={incident.status} />
          <RiskBadge risk={incident.risk_level} />
          {incident.types.map((t) => (
            <Badge key={t.id} variant="outline" color="gray" radius="sm">
              {t.name}
            </Badge>
          ))}
          {incident.escalated_at && incident.status === 'reported' && (
            <Badge color="red">Escalated {formatInZone(incident.escalated_at, timezone)}</Badge>
          )}
          {incident.escalated_at && incident.status !== 'reported' && (
            <Badge color="red" variant="outline">
              Was escalated
            </Badge>
          )}
        </Group>
        <Title order={1}>{students}</Title>
        {studentsTold !== students && (
          <Text c="dimmed" size="sm">
            {studentsTold}
          </Text>
        )}
        <Text c="dimmed" size="sm" mt={4}>
          Happened {formatInZone(incident.occurred_at, timezone)} · reported by {incident.reporter.name}{' '}
          {formatInZone(incident.reported_at, timezone)}
          {incident.lead_told_verbally ? ' · lead told verbally' : ''}
          {incident.lesson_id ? ` · lesson ${incident.lesson_id}` : ''}
        </Text>
        {triage && (
          <Group gap="md" mt="xs" aria-live="polite">
            <Group gap="xs">
              <ClaimedBy incident={incident} meId={meId} />
              {lead && <ClaimButton incident={incident} meId={meId} releaseOthers />}
            </Group>
            {others.length > 0 ? (
              <ViewerAvatars viewers={others} label="Also viewing" />
            ) : (
              <Text size="xs" c="dimmed">
                Nobody else has it open
              </Text>
            )}
          </Group>
        )}
      </div>

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="lg">
            <Card withBorder radius="md">
              <Title order={2} fz="h5" mb="xs">
                What happened
              </Title>
              <Text style={{ whiteSpace: 'pre-wrap' }}>{incident.description}</Text>
              <Title order={3} fz="h6" mt="md" mb={4}>
                Immediate action taken
              </Title>
              <Text style={{ whiteSpace: 'pre-wrap' }} c={incident.immediate_action ? undefined : 'dimmed'}>
                {incident.immediate_action || 'None recorded'}
              </Text>
            </Card>

            <Card withBorder radius="md">
              <Title order={2} fz="h5" mb="xs">
                Write-up
              </Title>
              <Text size="sm" c="dimmed" mb="sm">
                {closed
                  ? 'This incident is closed: the write-up is read-only until a safeguarding lead reopens it.'
                  : "The reporter and the safeguarding leads write this together; everyone sees each other's changes as they type. Every change is kept."}
              </Text>
              <Suspense fallback={<Skeleton height={240} />}>
                <CollabEditor
                  documentName={`safeguarding-incident:${incident.id}`}
                  readOnly={!mayWrite}
                  label="Incident write-up"
                />
              </Suspense>
            </Card>

            {incident.actions && incident.actions.length > 0 && (
              <Card withBorder radius="md">
                <Title order={2} fz="h5" mb="xs">
                  Actions
                </Title>
                <List spacing="xs">
                  {incident.actions.map((a) => (
                    <List.Item key={a.id}>
                      <Text size="sm" fw={500}>
                        {a.description}
                      </Text>
                      <Text size="xs" c="dimmed">
                        Due {formatInZone(a.due_date, timezone, DATE_FORMAT)}
                        {a.referral ? ` · referred to ${a.referral.agency}` : ''}
                        {a.referral?.reference ? ` (ref. ${a.referral.reference})` : ''}
                      </Text>
                    </List.Item>
                  ))}
                </List>
              </Card>
            )}
          </Stack>
        </Grid.Col>

        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="lg">
            {!partnerView && <WorkflowPanel incident={incident} isLead={lead} />}
            {lead && !partnerView && (
              <FeedbackLinksCard incidentId={incident.id} status={incident.status} timezone={timezone} />
            )}
            {incident.timeline ? (
              <IncidentTimeline timeline={incident.timeline} timezone={timezone} />
            ) : (
              // The reporter's view (ADR 0037): what they reported and its status, not the case.
              <Card withBorder radius="md">
                <Title order={2} fz="h5" mb={4}>
                  Your report
                </Title>
                <Text size="sm" c="dimmed">
                  You reported this concern. The safeguarding team follows it up; you see what you reported
                  and where it stands.
                </Text>
              </Card>
            )}
            {lead && !partnerView && <LeadTools incidentId={incident.id} timezone={timezone} />}
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** The incident's steps, by when they happened (safeguarding staff and partners). */
function IncidentTimeline({ timeline, timezone }: { timeline: ChronologyEntry[]; timezone: string }) {
  return (
    <Card withBorder radius="md">
      <Title order={2} fz="h5" mb="sm">
        Chronology
      </Title>
      <Timeline bulletSize={12} lineWidth={2} active={timeline.length}>
        {timeline.map((entry) => (
          <Timeline.Item
            key={entry.position}
            title={
              <Text size="sm" fw={500}>
                {entry.summary}
              </Text>
            }
          >
            <Text size="xs" c="dimmed">
              {formatInZone(entry.occurred_at, timezone)}
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
    </Card>
  );
}

/** Leads see who opened the record and can check that its history was not altered. */
function LeadTools({ incidentId, timezone }: { incidentId: string; timezone: string }) {
  const views = useQuery({
    queryKey: [SAFEGUARDING_KEY, 'views', incidentId],
    queryFn: () => safeguardingApi.views(incidentId),
  });
  const [check, setCheck] = useState<{ valid: boolean; events: number; broken_at?: number } | null>(null);
  const [checking, setChecking] = useState(false);
  return (
    <Card withBorder radius="md">
      <Title order={2} fz="h5" mb="sm">
        Access and integrity
      </Title>
      <Text size="sm" fw={500} mb={4}>
        Viewed by
      </Text>
      {views.isPending ? (
        <Skeleton height={60} />
      ) : (
        <List size="sm" spacing={2} mb="md">
          {(views.data?.items ?? []).slice(0, 10).map((v) => (
            <List.Item key={v.position}>
              {v.viewer.name} · {formatInZone(v.viewed_at, timezone)} ({v.via})
            </List.Item>
          ))}
        </List>
      )}
      <Group gap="sm">
        <Button
          variant="default"
          size="xs"
          loading={checking}
          onClick={() => {
            setChecking(true);
            safeguardingApi
              .verify(incidentId)
              .then(setCheck)
              .catch((error: unknown) => notifyError(error))
              .finally(() => setChecking(false));
          }}
        >
          Verify history
        </Button>
        {check && (
          <Text size="sm" c={check.valid ? 'teal' : 'red'} role="status">
            {check.valid
              ? `Intact: ${check.events} events, hash chain verified`
              : `Altered: the chain breaks at event ${check.broken_at ?? '?'}`}
          </Text>
        )}
      </Group>
    </Card>
  );
}
