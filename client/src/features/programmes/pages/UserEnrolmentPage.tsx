import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { canModifyProgram, isPartner, has } from '../../../app/access';
import { usePermissions } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { ConfirmDialog } from '../../../shared/ui/ConfirmDialog';
import { actionErrorText } from '../../../shared/ui/action-error';
import { PARTNER } from '@portal/projections/permissions';
import {
  enrolments,
  PLACEMENT_REASONS,
  PLACEMENT_TYPES,
  programmes,
  SETTINGS,
  STATUS_COLOURS,
  withdrawEnrolment,
  type Enrolment,
} from '../api';

/** `users/:id/enrolment`: a student's enrolments; managers add one, managers and permitted partners withdraw. */
export function UserEnrolmentPage() {
  const { id = '' } = useParams();
  const permissions = usePermissions();
  const mayManage = canModifyProgram(permissions);
  const mayWithdraw =
    mayManage || (isPartner(permissions) && has(permissions, PARTNER.WITHDRAW_STUDENT_FROM_ENROLLMENT));
  const list = enrolments.useList({ page: 1, size: 100, student_id: id });
  const [adding, setAdding] = useState(false);
  const [withdrawing, setWithdrawing] = useState<Enrolment | null>(null);
  const name = list.data?.items[0]?.student_name;
  return (
    <Stack gap="lg">
      <title>{`Enrolments · ${PRODUCT_NAME}`}</title>
      <Group justify="space-between">
        <Title order={1}>{name ? `${name}: enrolments` : 'Enrolments'}</Title>
        {mayManage && <Button onClick={() => setAdding(true)}>Add enrolment</Button>}
      </Group>
      <Card withBorder p={0}>
        {list.isPending ? (
          <Skeleton height={80} m="md" aria-label="Loading enrolments" />
        ) : list.isError ? (
          <Alert color="red" m="md" title="Enrolments could not be loaded">
            <Button size="xs" variant="default" onClick={() => void list.refetch()}>
              Retry
            </Button>
          </Alert>
        ) : list.data.items.length === 0 ? (
          <Text p="md" c="dimmed">
            No enrolments.
          </Text>
        ) : (
          <Table aria-label="Enrolments of this student" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Programme</Table.Th>
                <Table.Th>Dates</Table.Th>
                <Table.Th>Placement</Table.Th>
                <Table.Th>Status</Table.Th>
                {mayWithdraw && <Table.Th aria-label="Actions" />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>{e.programme_title ?? e.programme_id}</Table.Td>
                  <Table.Td>
                    {e.start_date} – {e.end_date ?? 'open'}
                  </Table.Td>
                  <Table.Td>
                    {e.placement_type} · {e.setting} · {e.reason_for_placement}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATUS_COLOURS[e.status] ?? 'gray'}>
                      {e.status}
                    </Badge>
                    {e.withdrawal_reason && (
                      <Text size="xs" c="dimmed">
                        {e.withdrawal_reason}
                      </Text>
                    )}
                  </Table.Td>
                  {mayWithdraw && (
                    <Table.Td>
                      {!['withdrawn', 'ended'].includes(e.status) && (
                        <Button size="xs" variant="subtle" color="red" onClick={() => setWithdrawing(e)}>
                          Withdraw
                        </Button>
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      {adding && <AddEnrolmentModal studentId={id} onClose={() => setAdding(false)} />}
      {withdrawing && <WithdrawDialog enrolment={withdrawing} onClose={() => setWithdrawing(null)} />}
    </Stack>
  );
}

function AddEnrolmentModal({ studentId, onClose }: { studentId: string; onClose: () => void }) {
  const options = programmes.useList({ page: 1, size: 200 });
  const [programmeId, setProgrammeId] = useState<string | null>(null);
  const [placement, setPlacement] = useState('NOT_SET');
  const [setting, setSetting] = useState('NOT_SET');
  const [reason, setReason] = useState('NOT_SET');
  const add = enrolments.useCommand(enrolments.create, { success: 'Enrolment added.', silentErrors: true });
  return (
    <Modal opened onClose={onClose} title="Add an enrolment" centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (programmeId)
            add.mutate(
              {
                student_id: studentId,
                programme_id: programmeId,
                placement_type: placement as Enrolment['placement_type'],
                setting: setting as Enrolment['setting'],
                reason_for_placement: reason as Enrolment['reason_for_placement'],
              } as Parameters<typeof enrolments.create>[0],
              { onSuccess: onClose },
            );
        }}
      >
        <Stack gap="sm">
          <Select
            label="Programme"
            required
            searchable
            data-autofocus
            disabled={options.isPending}
            data={(options.data?.items ?? []).map((p) => ({
              value: p.id,
              label: `${p.title} (${p.customer_name ?? ''})`,
            }))}
            value={programmeId}
            onChange={setProgrammeId}
          />
          <Select
            label="Placement type"
            allowDeselect={false}
            data={PLACEMENT_TYPES}
            value={placement}
            onChange={(v) => setPlacement(v ?? 'NOT_SET')}
          />
          <Select
            label="Setting"
            allowDeselect={false}
            data={SETTINGS}
            value={setting}
            onChange={(v) => setSetting(v ?? 'NOT_SET')}
          />
          <Select
            label="Reason for placement"
            allowDeselect={false}
            data={PLACEMENT_REASONS}
            value={reason}
            onChange={(v) => setReason(v ?? 'NOT_SET')}
          />
          {add.error != null && (
            <Alert color="red" role="alert" title="Enrolment not added">
              {actionErrorText(add.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={add.isPending} disabled={!programmeId}>
              Add enrolment
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function WithdrawDialog({ enrolment, onClose }: { enrolment: Enrolment; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const withdraw = enrolments.useCommand((why: string) => withdrawEnrolment(enrolment.id, why), {
    success: 'Student withdrawn.',
    silentErrors: true,
  });
  return (
    <ConfirmDialog
      opened
      title="Withdraw from the programme?"
      message={`${enrolment.student_name ?? 'The student'} leaves “${enrolment.programme_title ?? ''}” today.`}
      confirmLabel="Withdraw"
      danger
      pending={withdraw.isPending}
      error={withdraw.error}
      confirmDisabled={!reason.trim()}
      onClose={onClose}
      onConfirm={() => withdraw.mutate(reason.trim(), { onSuccess: onClose })}
    >
      <Textarea label="Reason" required value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
    </ConfirmDialog>
  );
}
