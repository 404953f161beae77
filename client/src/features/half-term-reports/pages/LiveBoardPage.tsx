import { Alert, Anchor, Badge, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { formatInZone, viewerTimezone } from '../../../shared/dates';
import { useSession } from '../../../shared/session';
import { useLiveStatus } from '../../../shared/live/live-connection';
import { stateColor, stateLabel } from '../api';
import { MODE_LABEL, useReportPresence, type ReportPresenceItem } from '../live-board';

const claimOf = (r: ReportPresenceItem['report']) =>
  r.state === 'in_qa'
    ? r.qa_claimed_by_name && `QA: ${r.qa_claimed_by_name}`
    : r.state === 'in_lead_review'
      ? r.lead_claimed_by_name && `Lead: ${r.lead_claimed_by_name}`
      : null;

/**
 * The live board (decision 0067): who has which half-term report open right now, in which mode and
 * since when, with the report's state and claim holder. Updates without reload: the server pushes
 * `report-presence` to administrators and the QA rooms whenever someone opens or leaves a report.
 */
export function LiveBoardPage() {
  const timezone = viewerTimezone(useSession((s) => s.user));
  const live = useLiveStatus((s) => s.state);
  const presence = useReportPresence();
  const items = presence.data?.items ?? [];
  return (
    <Stack gap="md">
      <div>
        <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.6}>
          Half-term reports
        </Text>
        <Title order={1} fz="h2">
          Live board
        </Title>
        <Text c="dimmed" mt={4} maw={760}>
          Who is in which report right now, writing, suggesting or reading, and since when. Nobody is locked
          out: this shows where people work so reviewers and writers do not trip over each other.
        </Text>
      </div>
      {live !== 'connected' && (
        <Alert color="orange" variant="light" role="status">
          Live updates are paused while the connection is restored; the board refreshes every 30 seconds.
        </Alert>
      )}
      {presence.isError && (
        <Alert color="red" variant="light" role="alert">
          The board could not be loaded. It will try again shortly.
        </Alert>
      )}
      <Card withBorder radius="md" p={0}>
        {presence.isPending ? (
          <Group gap="xs" p="md" role="status" aria-live="polite">
            <Loader size="sm" />
            <Text size="sm" c="dimmed">
              Loading who is where…
            </Text>
          </Group>
        ) : items.length === 0 ? (
          <Text p="md" c="dimmed" role="status">
            Nobody has a half-term report open right now.
          </Text>
        ) : (
          <Table highlightOnHover verticalSpacing="sm" aria-label="Reports open now">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Report</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Claimed by</Table.Th>
                <Table.Th>Who is in it</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody aria-live="polite">
              {items.map((p) => (
                <Table.Tr key={p.report_id} data-report={p.report_id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/half-term-report/${p.report_id}`} fw={500}>
                      {p.report.student_name ?? 'Student'}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {[p.report.programme_title, p.report.customer_name, p.report.timeframe_name]
                        .filter(Boolean)
                        .join(' · ')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={stateColor(p.report.state)}>
                      {stateLabel(p.report.state)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{claimOf(p.report) ?? '—'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={4}>
                      {p.editors.map((e) => (
                        <Group key={e.user_id} gap={6} wrap="nowrap">
                          <span
                            aria-hidden
                            style={{
                              width: 10,
                              height: 10,
                              borderRadius: 5,
                              background: e.color,
                              display: 'inline-block',
                            }}
                          />
                          <Text size="sm" fw={500}>
                            {e.name}
                          </Text>
                          <Badge size="sm" variant="outline" color={e.mode === 'view' ? 'gray' : 'blue'}>
                            {MODE_LABEL[e.mode] ?? e.mode}
                          </Badge>
                          <Text size="xs" c="dimmed">
                            since {formatInZone(e.since, timezone)}
                          </Text>
                        </Group>
                      ))}
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
    </Stack>
  );
}
