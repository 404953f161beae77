import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ApiError } from '../../../shared/api/client';
import { isoToWallClock, viewerTimezone, wallClockToIso } from '../../../shared/dates';
import { useSession } from '../../../shared/session';
import { RISK_LEVELS, safeguardingApi, type RiskLevel } from '../api';
import { SAFEGUARDING_KEY, useIncidentTypes, useReportIncident } from '../hooks';

type FieldErrors = Partial<
  Record<'student_ids' | 'type_ids' | 'occurred_at' | 'description' | 'immediate_action', string>
>;

/** Field errors from a 422 answer (`errors: [{ field, message }]` or a detail naming the field). */
function fieldErrorsOf(error: unknown): FieldErrors {
  if (!(error instanceof ApiError) || error.status !== 422) return {};
  const body = error.body as
    { errors?: { field?: string; property?: string; message?: string }[] } | undefined;
  const out: Record<string, string> = {};
  for (const e of body?.errors ?? []) {
    const field = e.field ?? e.property;
    if (field && e.message) out[field] = e.message.charAt(0).toUpperCase() + e.message.slice(1);
  }
  return out;
}

/** The report form (who may report: super admins, teachers, partners with a submit permission). */
export function ReportIncidentModal({
  opened,
  onClose,
  student,
}: {
  opened: boolean;
  onClose: (id?: string) => void;
  /** Opened from a student's page: that student is chosen already (more can be added). */
  student?: { id: string; label: string };
}) {
  const user = useSession((s) => s.user);
  const timezone = viewerTimezone(user);
  const [studentSearch, setStudentSearch] = useState('');
  const [debounced] = useDebouncedValue(studentSearch, 250);
  const [studentIds, setStudentIds] = useState<string[]>(() => (student ? [student.id] : []));
  const [typeIds, setTypeIds] = useState<string[]>([]);
  // Most concerns are reported the same day: "now" is the default, changed when it happened earlier.
  const [occurredAt, setOccurredAt] = useState<string | null>(() =>
    isoToWallClock(new Date().toISOString(), timezone),
  );
  const [description, setDescription] = useState('');
  const [immediateAction, setImmediateAction] = useState('');
  const [leadTold, setLeadTold] = useState(false);
  const [risk, setRisk] = useState<RiskLevel>('medium');
  const [lessonId, setLessonId] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [studentLabels, setStudentLabels] = useState<Record<string, string>>(() =>
    student ? { [student.id]: student.label } : {},
  );

  const students = useQuery({
    queryKey: [SAFEGUARDING_KEY, 'students', debounced],
    queryFn: () => safeguardingApi.students(debounced),
    enabled: opened,
  });
  const types = useIncidentTypes();
  const report = useReportIncident();

  const studentOptions = useMemo(() => {
    const found = (students.data?.items ?? []).map((s) => ({
      value: s.id,
      label: s.customer_name ? `${s.full_name} · ${s.customer_name}` : s.full_name,
    }));
    const chosen = studentIds
      .filter((id) => !found.some((o) => o.value === id))
      .map((id) => ({ value: id, label: studentLabels[id] ?? id }));
    return [...chosen, ...found];
  }, [students.data, studentIds, studentLabels]);

  const guidance = (types.data?.items ?? []).filter((t) => typeIds.includes(t.id) && t.guidance);

  const submit = () => {
    const local: FieldErrors = {};
    if (studentIds.length === 0) local.student_ids = 'Choose at least one student';
    if (typeIds.length === 0) local.type_ids = 'Choose at least one type';
    if (!occurredAt) local.occurred_at = 'Say when it happened';
    if (!description.trim()) local.description = 'Describe what happened';
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    report.mutate(
      {
        student_ids: studentIds,
        type_ids: typeIds,
        occurred_at: wallClockToIso(occurredAt!, timezone),
        description: description.trim(),
        immediate_action: immediateAction.trim(),
        lead_told_verbally: leadTold,
        risk_level: risk,
        lesson_id: lessonId.trim() || null,
      },
      {
        onSuccess: (written) => {
          setStudentIds(student ? [student.id] : []);
          setTypeIds([]);
          setOccurredAt(isoToWallClock(new Date().toISOString(), timezone));
          setDescription('');
          setImmediateAction('');
          setLeadTold(false);
          setLessonId('');
          onClose((written as { id: string }).id);
        },
        onError: (error) => setErrors(fieldErrorsOf(error)),
      },
    );
  };

  return (
    <Modal opened={opened} onClose={() => onClose()} title="Report a safeguarding concern" size="lg">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Record facts: what you saw or heard, in the words used. If a child is in immediate danger, call 999
          first, then tell the safeguarding lead.
        </Text>
        <MultiSelect
          label="Students"
          withAsterisk
          searchable
          searchValue={studentSearch}
          onSearchChange={setStudentSearch}
          data={studentOptions}
          value={studentIds}
          onChange={(ids) => {
            setStudentIds(ids);
            setErrors((e) => ({ ...e, student_ids: undefined }));
            setStudentLabels((labels) => ({
              ...labels,
              ...Object.fromEntries(
                studentOptions.filter((o) => ids.includes(o.value)).map((o) => [o.value, o.label]),
              ),
            }));
          }}
          placeholder={studentIds.length ? undefined : 'Search students by name'}
          nothingFoundMessage={students.isFetching ? 'Searching…' : 'No student found'}
          filter={({ options }) => options}
          error={errors.student_ids}
        />
        <MultiSelect
          label="Type of concern"
          withAsterisk
          data={(types.data?.items ?? []).map((t) => ({ value: t.id, label: t.name }))}
          value={typeIds}
          onChange={(ids) => {
            setTypeIds(ids);
            setErrors((e) => ({ ...e, type_ids: undefined }));
          }}
          placeholder={typeIds.length ? undefined : 'Choose one or more'}
          error={errors.type_ids}
          nothingFoundMessage="No incident types yet: an administrator adds them"
        />
        {guidance.map((t) => (
          <Alert key={t.id} variant="light" color="blue" title={`Guidance: ${t.name}`}>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {t.guidance}
            </Text>
          </Alert>
        ))}
        <Group grow align="flex-start">
          <DateTimePicker
            label="When it happened"
            description={`Your time zone: ${timezone}`}
            withAsterisk
            valueFormat="DD.MM.YYYY HH:mm"
            value={occurredAt}
            onChange={setOccurredAt}
            maxDate={new Date()}
            error={errors.occurred_at}
            clearable
          />
          <TextInput
            label="Lesson (if any)"
            value={lessonId}
            onChange={(e) => setLessonId(e.currentTarget.value)}
          />
        </Group>
        <Textarea
          label="What happened"
          withAsterisk
          autosize
          minRows={4}
          value={description}
          onChange={(e) => {
            setDescription(e.currentTarget.value);
            setErrors((errs) => ({ ...errs, description: undefined }));
          }}
          error={errors.description}
        />
        <Textarea
          label="Immediate action taken"
          autosize
          minRows={2}
          value={immediateAction}
          onChange={(e) => setImmediateAction(e.currentTarget.value)}
          error={errors.immediate_action}
        />
        <div>
          <Text size="sm" fw={500} mb={4} id="risk-label">
            Risk level
          </Text>
          <SegmentedControl
            aria-labelledby="risk-label"
            value={risk}
            onChange={(v) => setRisk(v)}
            data={RISK_LEVELS.map((r) => ({ value: r, label: r[0]!.toUpperCase() + r.slice(1) }))}
          />
        </div>
        <Checkbox
          label="I have already told the safeguarding lead verbally"
          checked={leadTold}
          onChange={(e) => setLeadTold(e.currentTarget.checked)}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={() => onClose()}>
            Cancel
          </Button>
          <Button onClick={submit} loading={report.isPending}>
            Report incident
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
