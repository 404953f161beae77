import { Badge, Select } from '@mantine/core';
import { useState } from 'react';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import { ENROLMENT_STATUSES, enrolments, STATUS_COLOURS, type Enrolment } from '../api';

/** `enrolments`: placements of students in programmes, filtered by status. */
export function EnrolmentsPage() {
  const [status, setStatus] = useState<string | null>(null);
  return (
    <ResourceListPage<Enrolment, { status?: string }>
      title="Enrolments"
      description="Which students are placed on which programme, with the placement details schools report."
      noun="enrolments"
      toolbar={
        <Select
          label="Status"
          placeholder="Any status"
          clearable
          data={ENROLMENT_STATUSES.map((s) => ({ value: s, label: s }))}
          value={status}
          onChange={setStatus}
          w={200}
        />
      }
      filters={{ status: status ?? undefined }}
      useList={enrolments.useList}
      rowHref={(e) => `/users/${e.student_id}/enrolment`}
      rowLabel={(e) => `${e.student_name ?? e.student_id} in ${e.programme_title ?? e.programme_id}`}
      empty={{ none: 'No enrolments yet.', search: 'No enrolment matches.' }}
      columns={[
        { accessor: 'student_name', title: 'Student' },
        { accessor: 'programme_title', title: 'Programme' },
        { accessor: 'customer_name', title: 'School' },
        {
          accessor: 'start_date',
          title: 'Dates',
          render: (e) => `${e.start_date} – ${e.end_date ?? 'open'}`,
        },
        { accessor: 'placement_type', title: 'Placement' },
        { accessor: 'setting', title: 'Setting' },
        {
          accessor: 'status',
          title: 'Status',
          render: (e) => (
            <Badge variant="light" color={STATUS_COLOURS[e.status] ?? 'gray'}>
              {e.status}
            </Badge>
          ),
        },
      ]}
    />
  );
}
