import {
  Alert,
  Button,
  Group,
  Modal,
  MultiSelect,
  Paper,
  Skeleton,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { formatInZone } from '../../../shared/dates';
import { notifySuccess } from '../../../shared/notify';
import type { CustomerRole, UserView } from '../api';
import {
  ehcpAccess,
  requestCandidates,
  useEhcpReminders,
  useRequestEhcp,
  useSchoolUsers,
  useSetEhcpReminders,
  withReminder,
} from '../ehcp';
import { actionErrorText } from '../../../shared/ui/action-error';

interface Props {
  student: UserView;
  permissions: readonly string[];
  viewerId: string | null;
  viewerCustomerType: CustomerRole | null;
  timezone: string;
}

/**
 * A student's EHCP (decision 0035): the latest EHCP file, the "EHCP reminder" switch for staff with
 * EHCP access, and "Request EHCP" for a school's (super) admin with EHCP and user-relations access.
 */
export function EhcpCard({ student, permissions, viewerId, viewerCustomerType, timezone }: Props) {
  const access = ehcpAccess(permissions, viewerCustomerType);
  const reminders = useEhcpReminders(access.reminders);
  const setReminders = useSetEhcpReminders();
  const [asking, setAsking] = useState(false);
  if (!access.reminders && !access.request) return null;

  const latest = student.student_profile?.latest_ehcp_file ?? null;
  const listed = reminders.data?.items.map((i) => i.id) ?? [];
  const onList = listed.includes(student.id);

  return (
    <Paper component="section" withBorder radius="md" p="md" aria-labelledby="ehcp-title">
      <Group justify="space-between" align="flex-start" mb="sm">
        <Title order={2} fz="h4" id="ehcp-title">
          EHCP
        </Title>
        {access.request && (
          <Button size="xs" variant="light" onClick={() => setAsking(true)}>
            Request EHCP
          </Button>
        )}
      </Group>
      <Text size="sm">
        {latest
          ? `Latest EHCP: ${latest.file_name}, uploaded ${formatInZone(latest.uploaded_at, timezone)}`
          : 'No EHCP file is on record for this student.'}
      </Text>
      {access.reminders && (
        <Stack gap={6} mt="sm">
          {reminders.isPending ? (
            <Skeleton height={24} width={260} aria-label="Loading the EHCP reminder" />
          ) : reminders.isError ? (
            <Alert color="red" role="alert" title="The EHCP reminder list could not be loaded">
              {actionErrorText(reminders.error)}
              <Button size="xs" variant="default" mt="xs" onClick={() => void reminders.refetch()}>
                Try again
              </Button>
            </Alert>
          ) : (
            <Switch
              label="EHCP reminder"
              description={
                onList && latest
                  ? 'An EHCP is on record now: the reminder can be switched off.'
                  : 'Keep this student on the EHCP reminder list until an EHCP is on record.'
              }
              checked={onList}
              disabled={setReminders.isPending}
              onChange={(event) => {
                const on = event.currentTarget.checked;
                setReminders.mutate(withReminder(listed, student.id, on), {
                  onSuccess: () => notifySuccess(on ? 'EHCP reminder set' : 'EHCP reminder removed'),
                });
              }}
            />
          )}
          {setReminders.isError && (
            <Text size="sm" c="red" role="alert">
              {actionErrorText(setReminders.error)}
            </Text>
          )}
        </Stack>
      )}
      {asking && <RequestEhcpModal student={student} viewerId={viewerId} onClose={() => setAsking(false)} />}
    </Paper>
  );
}

function RequestEhcpModal({
  student,
  viewerId,
  onClose,
}: {
  student: UserView;
  viewerId: string | null;
  onClose: () => void;
}) {
  const users = useSchoolUsers(true);
  const request = useRequestEhcp(student.id);
  const [chosen, setChosen] = useState<string[]>([]);
  const candidates = requestCandidates(users.data?.items ?? [], viewerId);

  return (
    <Modal
      opened
      onClose={onClose}
      title={`Request the EHCP of ${student.full_name}`}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          request.mutate(chosen, {
            onSuccess: (answer) => {
              notifySuccess(
                `EHCP requested from ${answer.recipients} ${answer.recipients === 1 ? 'person' : 'people'}`,
              );
              onClose();
            },
          });
        }}
      >
        <Stack gap="sm">
          <Text size="sm">
            Each person gets an e-mail with a link to this student's page (the student's name is not sent).
          </Text>
          {users.isPending ? (
            <Skeleton height={36} aria-label="Loading your school's users" />
          ) : users.isError ? (
            <Alert color="red" role="alert" title="Your school's users could not be loaded">
              {actionErrorText(users.error)}
            </Alert>
          ) : candidates.length === 0 ? (
            <Alert color="gray" title="Nobody to ask">
              No other user of your school can see students' details.
            </Alert>
          ) : (
            <MultiSelect
              label="People to ask"
              placeholder="Choose one or more"
              data={candidates.map((u) => ({ value: u.id, label: `${u.full_name} (${u.email})` }))}
              value={chosen}
              onChange={setChosen}
              searchable
              required
              data-autofocus
            />
          )}
          {request.isError && (
            <Text size="sm" c="red" role="alert">
              {actionErrorText(request.error)}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={request.isPending} disabled={chosen.length === 0}>
              Send request
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
