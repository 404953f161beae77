import { Badge, Text } from '@mantine/core';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import { schedules, type Schedule } from '../api';
import { ruleInWords } from '../components/ScheduleCard';

/** scheduling: every programme's weekly schedules, with the clashes they skipped. */
export function SchedulingPage() {
  return (
    <ResourceListPage<Schedule>
      title="Scheduling"
      description="The weekly schedules that plan lessons, across programmes."
      noun="schedules"
      useList={schedules.useList}
      rowHref={(s) => `/scheduling/${s.id}`}
      rowLabel={(s) => ruleInWords(s)}
      empty={{ none: 'No schedules yet. Add them from a programme.', search: 'No schedule matches.' }}
      columns={[
        {
          accessor: 'weekdays',
          title: 'Rule',
          render: (s) => (
            <Text size="sm" fw={500}>
              {ruleInWords(s)}
            </Text>
          ),
        },
        { accessor: 'group_name', title: 'Group', render: (s) => s.group_name ?? '—' },
        { accessor: 'teacher_name', title: 'Teacher', render: (s) => s.teacher_name ?? '—' },
        { accessor: 'timezone', title: 'Time zone' },
        {
          accessor: 'valid_from',
          title: 'Valid',
          render: (s) => `${s.valid_from}${s.valid_until ? ` – ${s.valid_until}` : ' onwards'}`,
        },
        {
          accessor: 'conflicts',
          title: 'Clashes',
          render: (s) =>
            s.conflicts.length ? (
              <Badge color="orange" variant="light">
                {s.conflicts.length}
              </Badge>
            ) : (
              '—'
            ),
        },
      ]}
    />
  );
}

export default SchedulingPage;
