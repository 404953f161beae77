import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { canModifyUser, isAdmin } from '../../../app/access';
import { usePermissions } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { Icon } from '../../../shared/ui/icons';
import type { ListType } from '../api';
import { AddUserModal } from '../components/AddUserModal';
import { UserListPanel } from '../components/UserListPanel';
import { TeachersWithoutAvailabilityButton } from '../components/TeachersWithoutAvailabilityButton';

const TITLES: Record<ListType | 'all', string> = {
  all: 'All users',
  students: 'Students',
  teachers: 'Teachers',
  partners: 'Partner users',
  admins: 'Administrators',
};

/** users/:type (spec §2): one list per user type, or every user when the type is empty. */
export function UsersListPage({ type }: { type?: ListType }) {
  const title = TITLES[type ?? 'all'];
  const navigate = useNavigate();
  const permissions = usePermissions();
  const admin = isAdmin(permissions);
  const mayImport = type !== undefined && canModifyUser(permissions);
  const [adding, setAdding] = useState(false);

  return (
    <Stack gap="md">
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <Group justify="space-between" align="flex-end">
        <div>
          <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.6}>
            Users
          </Text>
          <Title order={1} fz="h2">
            {title}
          </Title>
        </div>
        <Group gap="xs">
          {type === 'teachers' && admin && <TeachersWithoutAvailabilityButton />}
          {mayImport && (
            <Button variant="default" component={Link} to={`/users/import/${type}`}>
              Import
            </Button>
          )}
          <Button leftSection={<Icon name="user" size={16} />} onClick={() => setAdding(true)}>
            Add user
          </Button>
        </Group>
      </Group>

      <UserListPanel title={title} filter={{ type }} detailsPath={(user) => `/users/${user.id}/details`} />

      <AddUserModal
        opened={adding}
        onClose={() => setAdding(false)}
        defaultType={type}
        onCreated={(id) => void navigate(`/users/${id}/details`)}
      />
    </Stack>
  );
}

export default UsersListPage;
