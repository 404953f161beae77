import { Alert, Anchor, Button, Card, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { isAdmin } from '../../../app/access';
import { usePermissions } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { useMyStudents } from '../api';

/** `my-students` and `teacher-my-students`: a teacher's current students across their groups. */
export function MyStudentsPage({ title = 'My students' }: { title?: string }) {
  const students = useMyStudents();
  // The group screen is for administrators (routes.ts); others see the group's name.
  const groupLinks = isAdmin(usePermissions());
  return (
    <Stack gap="lg">
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <Title order={1}>{title}</Title>
      <Text c="dimmed">The students in your groups today, with their school and year group.</Text>
      <Card withBorder p={0}>
        {students.isPending ? (
          <Skeleton height={80} m="md" aria-label="Loading students" />
        ) : students.isError ? (
          <Alert color="red" m="md" title="Students could not be loaded">
            <Button size="xs" variant="default" onClick={() => void students.refetch()}>
              Retry
            </Button>
          </Alert>
        ) : students.data.items.length === 0 ? (
          <Text p="md" c="dimmed">
            You have no students in your groups today.
          </Text>
        ) : (
          <Table aria-label="My students" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Student</Table.Th>
                <Table.Th>School</Table.Th>
                <Table.Th>Year group</Table.Th>
                <Table.Th>Group</Table.Th>
                <Table.Th>Programme</Table.Th>
                <Table.Th>One-page profile</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {students.data.items.map((s) => (
                <Table.Tr key={`${s.student_id}:${s.group_id}`}>
                  <Table.Td>{s.name ?? s.student_id}</Table.Td>
                  <Table.Td>{s.customer_name ?? '—'}</Table.Td>
                  <Table.Td>{s.year_group_name ?? '—'}</Table.Td>
                  <Table.Td>
                    {groupLinks ? (
                      <Anchor component={Link} to={`/groups/${s.group_id}`}>
                        {s.group_name}
                      </Anchor>
                    ) : (
                      s.group_name
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/programmes/details/${s.programme_id}`}>
                      {s.programme_title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    {s.one_page_profile_id ? (
                      <Anchor component={Link} to={`/one-page-profiles/${s.one_page_profile_id}/details`}>
                        How best to support me
                      </Anchor>
                    ) : (
                      <Text span size="sm" c="dimmed">
                        None yet
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
    </Stack>
  );
}
