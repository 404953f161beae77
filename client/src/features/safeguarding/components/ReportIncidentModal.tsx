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
import { isoToWallClock, viewerTimezone, wallClockToIso } from '../../../shared/dates';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { useSession } from '../../../shared/session';
import { RISK_LEVELS, safeguardingApi, type RiskLevel } from '../api';
import { SAFEGUARDING_KEY, useIncidentTypes, useReportIncident } from '../hooks';
import { studentLabel } from '../../../shared/student-label';

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
  // Most concerns are reported the same day: "now" is the default, changed when it happened earlier.
  const fresh = (risk: RiskLevel = 'medium') => ({
    student_ids: student ? [student.id] : [],
    type_ids: [] as string[],
    occurred_at: isoToWallClock(new Date().toISOString(), timezone) as string | null,
    description: '',
    immediate_action: '',
    lead_told_verbally: false,
    risk_level: risk,
    lesson_id: '',
  });
  const form = useServerForm(
    () => fresh(),
    (d) =>
      report.mutateAsync({
        student_ids: d.student_ids,
        type_ids: d.type_ids,
        occurred_at: wallClockToIso(d.occurred_at!, timezone),
        description: d.description.trim(),
        immediate_action: d.immediate_action.trim(),
        lead_told_verbally: d.lead_told_verbally,
        risk_level: d.risk_level,
        lesson_id: d.lesson_id.trim() || null,
      }),
    {
      validate: (d) => ({
        student_ids: d.student_ids.length === 0 ? 'Choose at least one student' : undefined,
        type_ids: d.type_ids.length === 0 ? 'Choose at least one type' : undefined,
        occurred_at: !d.occurred_at ? 'Say when it happened' : undefined,
        description: !d.description.trim() ? 'Describe what happened' : undefined,
      }),
      // The next report starts empty again, at the risk level chosen last.
      onSuccess: (written, d) => {
        form.reset(fresh(d.risk_level));
        onClose((written as { id: string }).id);
      },
    },
  );
  const { draft, set, err } = form;
  const studentIds = draft.student_ids;
  const typeIds = draft.type_ids;

  const studentOptions = useMemo(() => {
    const found = (students.data?.items ?? []).map((s) => ({
      value: s.id,
      label: studentLabel({ name: s.full_name, school: s.customer_name, year_group: s.year_group }),
    }));
    const chosen = studentIds
      .filter((id) => !found.some((o) => o.value === id))
      .map((id) => ({ value: id, label: studentLabels[id] ?? id }));
    return [...chosen, ...found];
  }, [students.data, studentIds, studentLabels]);

  const guidance = (types.data?.items ?? []).filter((t) => typeIds.includes(t.id) && t.guidance);

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
            set('student_ids', ids);
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
          error={err('student_ids')}
        />
        <MultiSelect
          label="Type of concern"
          withAsterisk
          data={(types.data?.items ?? []).map((t) => ({ value: t.id, label: t.name }))}
          value={typeIds}
          onChange={(ids) => set('type_ids', ids)}
          placeholder={typeIds.length ? undefined : 'Choose one or more'}
          error={err('type_ids')}
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
            value={draft.occurred_at}
            onChange={(value) => form.setDraft((d) => ({ ...d, occurred_at: value }))}
            maxDate={new Date()}
            error={err('occurred_at')}
            clearable
          />
          <TextInput
            label="Lesson (if any)"
            value={draft.lesson_id}
            onChange={(e) => set('lesson_id', e.currentTarget.value)}
          />
        </Group>
        <Textarea
          label="What happened"
          withAsterisk
          autosize
          minRows={4}
          value={draft.description}
          onChange={(e) => set('description', e.currentTarget.value)}
          error={err('description')}
        />
        <Textarea
          label="Immediate action taken"
          autosize
          minRows={2}
          value={draft.immediate_action}
          onChange={(e) => form.setDraft((d) => ({ ...d, immediate_action: e.currentTarget.value }))}
          error={err('immediate_action')}
        />
        <div>
          <Text size="sm" fw={500} mb={4} id="risk-label">
            Risk level
          </Text>
          <SegmentedControl
            aria-labelledby="risk-label"
            value={draft.risk_level}
            onChange={(v) => set('risk_level', v)}
            data={RISK_LEVELS.map((r) => ({ value: r, label: r[0]!.toUpperCase() + r.slice(1) }))}
          />
        </div>
        <Checkbox
          label="I have already told the safeguarding lead verbally"
          checked={draft.lead_told_verbally}
          onChange={(e) => set('lead_told_verbally', e.currentTarget.checked)}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={() => onClose()}>
            Cancel
          </Button>
          <Button onClick={() => void form.submit()} loading={form.pending}>
            Report incident
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
