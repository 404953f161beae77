import { Alert, Badge, Button, Checkbox, Group, Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRequest } from '../../../shared/api/client';
import { isAdmin } from '../../../app/access';
import { usePermissions } from '../../../shared/session';
import { actionErrorText } from '../../../shared/ui/action-error';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import { reportList, stateColor, stateLabel, useAssign, type Report } from '../api';

interface Tutor {
  id: string;
  display_name: string;
}

const useTutors = () =>
  useQuery({
    queryKey: ['half-term-reports', 'tutors'],
    queryFn: ({ signal }) => apiRequest<{ items: Tutor[] }>('/api/v1/users/tutors/simple', { signal }),
    meta: { silentErrors: true },
  });

/** One row's writer, QA reviewer and QA lead; only what changed is sent (a field left out is unchanged). */
function AssignRow({ report, people }: { report: Report; people: { value: string; label: string }[] }) {
  const assign = useAssign();
  const [writer, setWriter] = useState<string | null>(report.writer_ids[0] ?? null);
  const [qa, setQa] = useState<string | null>(report.qa_reviewer_id);
  const [lead, setLead] = useState<string | null>(report.lead_reviewer_id);
  const changed =
    writer !== (report.writer_ids[0] ?? null) ||
    qa !== report.qa_reviewer_id ||
    lead !== report.lead_reviewer_id;
  const save = () =>
    assign.mutate([
      {
        report_id: report.id,
        ...(writer !== (report.writer_ids[0] ?? null) && writer
          ? { writer_ids: [writer, ...report.writer_ids.filter((w) => w !== writer)] }
          : {}),
        ...(qa !== report.qa_reviewer_id ? { qa_reviewer_id: qa } : {}),
        ...(lead !== report.lead_reviewer_id ? { lead_reviewer_id: lead } : {}),
      },
    ]);
  const select = (label: string, value: string | null, onChange: (v: string | null) => void) => (
    <Select
      aria-label={`${label} for ${report.student_name ?? 'student'}`}
      placeholder="Unassigned"
      searchable
      clearable={label !== 'Writer'}
      size="xs"
      value={value}
      onChange={onChange}
      data={people}
    />
  );
  return (
    <Group gap="xs" wrap="nowrap" onClick={(e) => e.stopPropagation()}>
      {select('Writer', writer, setWriter)}
      {select('QA reviewer', qa, setQa)}
      {select('QA lead', lead, setLead)}
      <Button size="xs" disabled={!changed} loading={assign.isPending} onClick={save}>
        Save
      </Button>
      {assign.error && (
        <Text size="xs" c="red" role="alert">
          {actionErrorText(assign.error)}
        </Text>
      )}
    </Group>
  );
}

/** half-term-reports/assignments: writers, QA reviewer and QA lead per report; unassigned rows first. */
export function AssignmentsPage() {
  const admin = isAdmin(usePermissions());
  const [unassigned, setUnassigned] = useState(false);
  const [all, setAll] = useState(admin);
  const tutors = useTutors();
  const people = (tutors.data?.items ?? []).map((t) => ({ value: t.id, label: t.display_name }));
  const filters = { ...(unassigned ? { unassigned: true } : {}), ...(admin && all ? { all: true } : {}) };
  return (
    <ResourceListPage<Report, typeof filters>
      title="Half-term report assignments"
      eyebrow="Half-term reports"
      description="Who writes, reviews and signs off each report. A reviewer may not review a report they write."
      noun="assignments"
      filters={filters}
      notice={
        tutors.isError ? (
          <Alert color="yellow">
            The list of teachers could not be loaded; assignments cannot be changed now.
          </Alert>
        ) : undefined
      }
      toolbar={
        <Group>
          <Checkbox
            label="Unassigned only"
            checked={unassigned}
            onChange={(e) => setUnassigned(e.currentTarget.checked)}
          />
          {admin && (
            <Checkbox
              label="All programmes"
              checked={all}
              onChange={(e) => setAll(e.currentTarget.checked)}
            />
          )}
        </Group>
      }
      useList={reportList('assignments')}
      rowHref={(r) => `/half-term-report/${r.id}`}
      rowLabel={(r) => `${r.student_name ?? 'Student'}, ${r.programme_title ?? ''}`}
      empty={{ none: 'No reports in your scope.', search: 'No report matches.' }}
      columns={[
        { accessor: 'student_name', title: 'Student', render: (r) => r.student_name ?? '—' },
        { accessor: 'programme_title', title: 'Programme', render: (r) => r.programme_title ?? '—' },
        {
          accessor: 'state',
          title: 'State',
          render: (r) => (
            <Badge variant="light" color={stateColor(r.state)}>
              {stateLabel(r.state)}
            </Badge>
          ),
        },
        {
          accessor: 'assign',
          title: 'Writer · QA reviewer · QA lead',
          render: (r) => (
            <AssignRow
              key={`${r.id}-${r.writer_ids.join()}-${r.qa_reviewer_id}-${r.lead_reviewer_id}`}
              report={r}
              people={people}
            />
          ),
        },
      ]}
    />
  );
}

export default AssignmentsPage;
