import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { internalMay } from '../../../app/access';
import { DATE_TIME_FORMAT, formatInZone, viewerTimezone } from '../../../shared/dates';
import { usePermissions, useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { actionErrorText } from '../../../shared/ui/action-error';
import { INTERNAL_PERMISSIONS } from '@portal/projections/permissions';
import { coverRequests, useAcceptCover, useCancelCover, useDeclineCover, type CoverRequest } from '../api';

type View = 'offers' | 'mine' | 'all';

const STATUS_COLOR: Record<string, string> = {
  open: 'blue',
  filled: 'green',
  cancelled: 'gray',
  expired: 'orange',
};

function Row({ request, timezone }: { request: CoverRequest; timezone: string }) {
  const accept = useAcceptCover();
  const decline = useDeclineCover();
  const cancel = useCancelCover();
  const error = accept.error ?? decline.error ?? cancel.error;
  return (
    <Table.Tr>
      <Table.Td>
        <Stack gap={2}>
          {request.lessons.map((l) => (
            <Text key={l.id} size="sm">
              <Link to={`/lessons/${l.id}`}>{formatInZone(l.starts_at, timezone, DATE_TIME_FORMAT)}</Link> ·{' '}
              {l.programme_title ?? 'Lesson'} · {l.group_name ?? ''} ({l.teacher_name ?? '—'})
            </Text>
          ))}
        </Stack>
      </Table.Td>
      <Table.Td>{request.reason}</Table.Td>
      <Table.Td>{request.requested_by_name ?? '—'}</Table.Td>
      <Table.Td>
        <Badge variant="light" color={STATUS_COLOR[request.status] ?? 'gray'}>
          {request.status}
        </Badge>
        {request.filled_by_name && (
          <Text size="xs" c="dimmed">
            by {request.filled_by_name}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {request.mode}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {request.can_accept && (
            <Button size="xs" loading={accept.isPending} onClick={() => accept.mutate(request.id)}>
              Accept
            </Button>
          )}
          {request.can_accept && (
            <Button
              size="xs"
              variant="default"
              loading={decline.isPending}
              onClick={() => decline.mutate(request.id)}
            >
              Decline
            </Button>
          )}
          {request.can_cancel && (
            <Button
              size="xs"
              color="red"
              variant="light"
              loading={cancel.isPending}
              onClick={() => cancel.mutate(request.id)}
            >
              Cancel request
            </Button>
          )}
        </Group>
        {error && (
          <Text size="xs" c="red" role="alert">
            {actionErrorText(error)}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** cover-requests: open requests I can take, my requests, and (lesson editors) every request. */
export function CoverRequestsPage() {
  const permissions = usePermissions();
  const timezone = viewerTimezone(useSession((s) => s.user));
  const editor = internalMay(permissions, INTERNAL_PERMISSIONS.LESSON_EDITS);
  const [view, setView] = useState<View>(editor ? 'all' : 'offers');
  const [page, setPage] = useState(1);
  const query = coverRequests.useList({ page, size: 50, view });
  const items = query.data?.items ?? [];
  const total = query.data?.total ?? 0;
  return (
    <Stack gap="md">
      <title>{`Cover requests · ${PRODUCT_NAME}`}</title>
      <Title order={1} fz="h2">
        Cover requests
      </Title>
      <SegmentedControl
        aria-label="Which requests"
        value={view}
        onChange={(v) => {
          setView(v as View);
          setPage(1);
        }}
        data={[
          { value: 'offers', label: 'Open for me' },
          { value: 'mine', label: 'My requests' },
          ...(editor ? [{ value: 'all', label: 'All requests' }] : []),
        ]}
      />
      {query.isError ? (
        <Alert color="red" role="alert" title="Could not load cover requests">
          {actionErrorText(query.error)}{' '}
          <Button size="xs" variant="subtle" onClick={() => void query.refetch()}>
            Retry
          </Button>
        </Alert>
      ) : !query.data ? (
        <Skeleton height={160} radius="md" aria-label="Loading cover requests" />
      ) : items.length === 0 ? (
        <Paper withBorder radius="md" p="lg">
          <Text c="dimmed">
            {view === 'offers'
              ? 'No open cover requests for you right now.'
              : view === 'mine'
                ? 'You have not requested or taken cover. Request cover from a lesson’s page.'
                : 'No cover requests.'}
          </Text>
        </Paper>
      ) : (
        <Paper withBorder radius="md">
          <Table striped verticalSpacing="sm" aria-label="Cover requests">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Lessons (your time)</Table.Th>
                <Table.Th>Reason</Table.Th>
                <Table.Th>Requested by</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((r) => (
                <Row key={r.id} request={r} timezone={timezone} />
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      {total > 50 && (
        <Group justify="flex-end">
          <Button variant="default" size="xs" disabled={page === 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <Button variant="default" size="xs" disabled={page * 50 >= total} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </Group>
      )}
    </Stack>
  );
}

export default CoverRequestsPage;
