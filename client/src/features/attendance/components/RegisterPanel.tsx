import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { isInternal, isPartner } from '../../../app/access';
import { ApiError } from '../../../shared/api/client';
import { DATE_TIME_FORMAT, formatInZone, wallClockToIso } from '../../../shared/dates';
import { usePermissions } from '../../../shared/session';
import { actionErrorText } from '../../../shared/ui/action-error';
import { PARTNER } from '@portal/projections/permissions';
import {
  MARK_COLORS,
  MARK_LABELS,
  REASON_LABELS,
  describeEntry,
  markOptions,
  reasonOptions,
  useGiveReason,
  useRegister,
  useRegisterHistory,
  useTakeRegister,
  type MarkInput,
  type RegisterEntry,
} from '../api';

/** Who reads registers: internal users, and partners who see attendance or give reasons (others get 403/404). */
export const mayReadRegister = (permissions: readonly string[]) =>
  isInternal(permissions) ||
  (isPartner(permissions) &&
    (permissions.includes(PARTNER.SEE_ATTENDANCE) || permissions.includes(PARTNER.SET_ABSENCE_REASON)));

interface Draft {
  mark: string;
  minutes_late: number | null;
  minutes_missed: number | null;
  absence_reason: string | null;
}

/** An automatic mark from the meeting joins, waiting for the teacher. */
const isAutomatic = (e: RegisterEntry) => e.source === 'meeting';

const fromEntry = (e: RegisterEntry): Draft => ({
  mark: e.confirmed || isAutomatic(e) ? (e.mark ?? '') : '',
  minutes_late: e.minutes_late,
  minutes_missed: e.minutes_missed,
  absence_reason: e.confirmed || isAutomatic(e) ? e.absence_reason : null,
});

const same = (a: Draft, b: Draft) =>
  a.mark === b.mark &&
  (a.mark !== 'late' || a.minutes_late === b.minutes_late) &&
  (a.mark !== 'left_early' || a.minutes_missed === b.minutes_missed) &&
  (a.mark !== 'absent' || a.absence_reason === b.absence_reason);

const toInput = (studentId: string, d: Draft, reason?: string): MarkInput => ({
  student_id: studentId,
  mark: d.mark as MarkInput['mark'],
  minutes_late: d.mark === 'late' ? d.minutes_late : null,
  minutes_missed: d.mark === 'left_early' ? d.minutes_missed : null,
  absence_reason: d.mark === 'absent' ? (d.absence_reason as MarkInput['absence_reason']) : null,
  ...(reason ? { reason } : {}),
});

function History({ lessonId, timezone }: { lessonId: string; timezone: string }) {
  const history = useRegisterHistory(lessonId, true);
  if (history.isError)
    return (
      <Alert color="red" role="alert">
        Could not load the history: {actionErrorText(history.error)}
      </Alert>
    );
  if (!history.data) return <Skeleton height={80} aria-label="Loading the history" />;
  if (history.data.items.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No amendments: every mark is the original entry.
      </Text>
    );
  return (
    <Table striped aria-label="Amendment history">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Student</Table.Th>
          <Table.Th>Original</Table.Th>
          <Table.Th>Amended</Table.Th>
          <Table.Th>Reason</Table.Th>
          <Table.Th>When</Table.Th>
          <Table.Th>By</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {history.data.items.map((a, i) => (
          <Table.Tr key={`${a.student_id}-${a.amended_at}-${i}`}>
            <Table.Td>{a.student_name ?? a.student_id}</Table.Td>
            <Table.Td>{describeEntry(a.original)}</Table.Td>
            <Table.Td>{describeEntry(a.amended)}</Table.Td>
            <Table.Td>{a.reason}</Table.Td>
            <Table.Td>{formatInZone(a.amended_at, timezone, DATE_TIME_FORMAT)}</Table.Td>
            <Table.Td>
              {a.amended_by.name}
              <Text size="xs" c="dimmed">
                {a.amended_by.position}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function PartnerReason({ lessonId, entry }: { lessonId: string; entry: RegisterEntry }) {
  const give = useGiveReason(lessonId);
  const [reason, setReason] = useState('illness');
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="nowrap">
        <NativeSelect
          size="xs"
          aria-label={`Reason for ${entry.student_name ?? 'the student'}`}
          data={reasonOptions}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
        />
        <Button
          size="xs"
          loading={give.isPending}
          onClick={() => give.mutate({ studentId: entry.student_id, absence_reason: reason })}
        >
          Give reason
        </Button>
      </Group>
      {give.error && (
        <Text size="xs" c="red" role="alert">
          {actionErrorText(give.error)}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The register of a lesson (decision 0056): teachers and attendance staff take and amend marks (an
 * amendment asks why), partners give reasons for absences, everyone who sees it can read its
 * amendment history and the register as it stood at any past moment.
 */
export function RegisterPanel({ lessonId, timezone }: { lessonId: string; timezone: string }) {
  const permissions = usePermissions();
  const mayWrite = isInternal(permissions);
  const givesReasons = isPartner(permissions) && permissions.includes(PARTNER.SET_ABSENCE_REASON);
  const [asAt, setAsAt] = useState<string | null>(null);
  const [asAtInput, setAsAtInput] = useState('');
  const [showHistory, setShowHistory] = useState(false);
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [askReason, setAskReason] = useState(false);
  const [reason, setReason] = useState('');
  const register = useRegister(lessonId, asAt);
  const take = useTakeRegister(lessonId);
  const data = register.data;
  const editable = mayWrite && asAt === null && data !== undefined && !data.voided;

  const draftOf = (e: RegisterEntry) => drafts[e.student_id] ?? fromEntry(e);
  const changed = (data?.entries ?? []).filter((e) => {
    const d = drafts[e.student_id];
    return d !== undefined && d.mark !== '' && !same(d, fromEntry(e));
  });
  const amendments = changed.filter((e) => e.confirmed);
  const automatic = (data?.entries ?? []).filter(isAutomatic);
  const setDraft = (e: RegisterEntry, patch: Partial<Draft>) =>
    setDrafts((all) => ({ ...all, [e.student_id]: { ...draftOf(e), ...patch } }));

  const save = (why?: string) =>
    take.mutate(
      changed.map((e) => toInput(e.student_id, drafts[e.student_id]!, e.confirmed ? why : undefined)),
      {
        onSuccess: () => {
          setDrafts({});
          setAskReason(false);
          setReason('');
        },
      },
    );

  const conflict = take.error instanceof ApiError && take.error.status === 409;

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={2} fz="h4">
              Register
            </Title>
            {data && (
              <Text size="sm" c="dimmed">
                {data.voided
                  ? 'The lesson was cancelled after marks were taken; the marks are kept but do not count.'
                  : data.opened_at
                    ? `Opened ${formatInZone(data.opened_at, timezone, DATE_TIME_FORMAT)}. Teachers may amend until ${formatInZone(data.teacher_amend_until, timezone, DATE_TIME_FORMAT)}.`
                    : `Not taken yet; it opens ${formatInZone(data.opens_at, timezone, DATE_TIME_FORMAT)}.`}
              </Text>
            )}
          </div>
          <Group gap="xs" align="flex-end">
            <TextInput
              type="datetime-local"
              label="As at (your time)"
              size="xs"
              value={asAtInput}
              onChange={(e) => setAsAtInput(e.currentTarget.value)}
            />
            <Button
              size="xs"
              variant="default"
              disabled={!asAtInput}
              onClick={() => setAsAt(wallClockToIso(asAtInput, timezone))}
            >
              Show as at
            </Button>
            {asAt && (
              <Button
                size="xs"
                variant="default"
                onClick={() => {
                  setAsAt(null);
                  setAsAtInput('');
                }}
              >
                Now
              </Button>
            )}
            <Button size="xs" variant="light" onClick={() => setShowHistory((v) => !v)}>
              {showHistory ? 'Hide history' : 'History'}
            </Button>
          </Group>
        </Group>
        {asAt && (
          <Alert color="blue" title="A past moment">
            The register exactly as it stood at {formatInZone(asAt, timezone, DATE_TIME_FORMAT)}.
          </Alert>
        )}
        {register.isError ? (
          <Alert color="red" role="alert" title="Could not load the register">
            {actionErrorText(register.error)}
          </Alert>
        ) : !data ? (
          <Skeleton height={120} aria-label="Loading the register" />
        ) : data.entries.length === 0 ? (
          <Text size="sm" c="dimmed">
            No students on this register.
          </Text>
        ) : (
          <Table aria-label="Register" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Student</Table.Th>
                <Table.Th>Mark</Table.Th>
                <Table.Th>Details</Table.Th>
                <Table.Th>Suggested code</Table.Th>
                <Table.Th>Recorded by</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.entries.map((e) => {
                const d = draftOf(e);
                const name = e.student_name ?? 'the student';
                return (
                  <Table.Tr key={e.student_id}>
                    <Table.Td>
                      {e.student_name ?? e.student_id}
                      {isAutomatic(e) && (
                        <Badge ml="xs" size="xs" color="orange" variant="light">
                          automatic: confirm
                        </Badge>
                      )}
                      {e.basis === 'guest' && (
                        <Badge ml="xs" size="xs" variant="outline">
                          guest
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {editable ? (
                        <NativeSelect
                          size="xs"
                          aria-label={`Mark for ${name}`}
                          data={[{ value: '', label: 'Not marked' }, ...markOptions]}
                          value={d.mark}
                          onChange={(ev) => setDraft(e, { mark: ev.currentTarget.value })}
                        />
                      ) : e.mark ? (
                        <Badge variant="light" color={e.confirmed ? (MARK_COLORS[e.mark] ?? 'gray') : 'gray'}>
                          {MARK_LABELS[e.mark] ?? e.mark}
                          {e.confirmed ? '' : isAutomatic(e) ? ' (automatic, to confirm)' : ' (pre-filled)'}
                        </Badge>
                      ) : (
                        <Text size="sm" c="dimmed">
                          Not marked
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {editable && d.mark === 'late' ? (
                        <NumberInput
                          size="xs"
                          aria-label={`Minutes late for ${name}`}
                          min={1}
                          value={d.minutes_late ?? ''}
                          onChange={(v) => setDraft(e, { minutes_late: v === '' ? null : Number(v) })}
                        />
                      ) : editable && d.mark === 'left_early' ? (
                        <NumberInput
                          size="xs"
                          aria-label={`Minutes missed for ${name}`}
                          min={1}
                          value={d.minutes_missed ?? ''}
                          onChange={(v) => setDraft(e, { minutes_missed: v === '' ? null : Number(v) })}
                        />
                      ) : editable && d.mark === 'absent' ? (
                        <NativeSelect
                          size="xs"
                          aria-label={`Absence reason for ${name}`}
                          data={[{ value: '', label: 'Choose a reason' }, ...reasonOptions]}
                          value={d.absence_reason ?? ''}
                          onChange={(ev) => setDraft(e, { absence_reason: ev.currentTarget.value || null })}
                        />
                      ) : givesReasons && e.mark === 'absent_pending' && asAt === null ? (
                        <PartnerReason lessonId={lessonId} entry={e} />
                      ) : (
                        <Text size="sm">
                          {e.source === 'prefill' && e.absence_reason
                            ? `School says: ${REASON_LABELS[e.absence_reason] ?? e.absence_reason}`
                            : e.mark
                              ? describeEntry(e)
                              : ''}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {e.suggested_code ?? '—'}
                      {e.suggestion && (
                        <Text size="xs" c="dimmed">
                          Joined {formatInZone(e.suggestion.joined_at, timezone, 'HH:mm')}: suggests{' '}
                          {describeEntry({
                            mark: e.suggestion.mark,
                            minutes_late: e.suggestion.minutes_late,
                            minutes_missed: null,
                            absence_reason: null,
                          })}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {e.recorded_by ? (
                        <Text size="sm">
                          {e.recorded_by.name}
                          <Text span size="xs" c="dimmed">
                            {' '}
                            · {e.recorded_by.position}
                          </Text>
                        </Text>
                      ) : (
                        '—'
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        {take.error && (
          <Alert
            color={conflict ? 'orange' : 'red'}
            role="alert"
            title={conflict ? 'Someone changed these marks' : 'Not saved'}
          >
            {actionErrorText(take.error)}
            {conflict && ' The register now shows their marks; choose yours again and give a reason.'}
          </Alert>
        )}
        {editable && (
          <Group justify="space-between">
            <Group gap="xs">
              {automatic.length > 0 && (
                <Button
                  variant="light"
                  color="orange"
                  size="sm"
                  loading={take.isPending}
                  onClick={() =>
                    take.mutate(
                      automatic.map((e) => toInput(e.student_id, drafts[e.student_id] ?? fromEntry(e))),
                      { onSuccess: () => setDrafts({}) },
                    )
                  }
                >
                  Confirm automatic marks ({automatic.length})
                </Button>
              )}
              {data.entries.some((e) => e.suggestion) && (
                <Button
                  variant="default"
                  size="sm"
                  onClick={() =>
                    setDrafts((all) => {
                      const next = { ...all };
                      for (const e of data.entries)
                        if (e.suggestion && !e.confirmed && !next[e.student_id]?.mark)
                          next[e.student_id] = {
                            ...fromEntry(e),
                            mark: e.suggestion.mark,
                            minutes_late: e.suggestion.minutes_late,
                          };
                      return next;
                    })
                  }
                >
                  Use meeting joins
                </Button>
              )}
              <Button
                variant="default"
                size="sm"
                onClick={() =>
                  setDrafts((all) => {
                    const next = { ...all };
                    for (const e of data.entries)
                      if (!e.confirmed && !next[e.student_id]?.mark)
                        next[e.student_id] = { ...fromEntry(e), mark: 'present' };
                    return next;
                  })
                }
              >
                Mark the rest present
              </Button>
            </Group>
            <Button
              disabled={changed.length === 0}
              loading={take.isPending}
              onClick={() => (amendments.length > 0 ? setAskReason(true) : save())}
            >
              Save register
            </Button>
          </Group>
        )}
        {showHistory && <History lessonId={lessonId} timezone={timezone} />}
      </Stack>
      {askReason && (
        <Modal opened onClose={() => setAskReason(false)} title="Why are these marks changing?">
          <form
            onSubmit={(ev) => {
              ev.preventDefault();
              save(reason.trim());
            }}
          >
            <Stack>
              <Text size="sm">
                Amending {amendments.map((e) => e.student_name ?? e.student_id).join(', ')}. The original
                entry, the new one, your reason, the time and your name and position are kept in the
                register&apos;s history.
              </Text>
              <Textarea
                label="Reason for the change"
                required
                withAsterisk
                value={reason}
                onChange={(ev) => setReason(ev.currentTarget.value)}
                data-autofocus
              />
              {take.error && (
                <Text size="sm" c="red" role="alert">
                  {actionErrorText(take.error)}
                </Text>
              )}
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setAskReason(false)}>
                  Back
                </Button>
                <Button type="submit" disabled={!reason.trim()} loading={take.isPending}>
                  Save amendments
                </Button>
              </Group>
            </Stack>
          </form>
        </Modal>
      )}
    </Paper>
  );
}
