import { Text } from '@mantine/core';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import { groups, type GroupListItem } from '../api';

/** `groups`: every group the viewer may see, with its programme, lead teacher and members today. */
export function GroupsPage() {
  return (
    <ResourceListPage<GroupListItem>
      title="Groups"
      description="The classes of every programme."
      noun="groups"
      search={{ label: 'Search groups', placeholder: 'Search by group name' }}
      useList={groups.useList}
      rowHref={(g) => `/groups/${g.id}`}
      rowLabel={(g) => `${g.name}, ${g.programme_title}`}
      empty={{ none: 'No groups yet.', search: 'No group matches your search.' }}
      columns={[
        {
          accessor: 'name',
          title: 'Group',
          render: (g) => (
            <Text fw={500} size="sm">
              {g.name}
            </Text>
          ),
        },
        { accessor: 'programme_title', title: 'Programme' },
        { accessor: 'lead_teacher_name', title: 'Lead teacher', render: (g) => g.lead_teacher_name ?? '—' },
        { accessor: 'student_count', title: 'Students today' },
      ]}
    />
  );
}
