import { Alert, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { usePermissions } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { Icon } from '../../../shared/ui/icons';
import type { UserListParams } from '../api';
import { AddUserModal } from '../components/AddUserModal';
import { UserListPanel } from '../components/UserListPanel';
import { addableKinds, areaPaths, visibleKinds, type MyUserKind } from '../my-users';

const ALL = 'all';

const filterOf = (kind: MyUserKind | undefined): Pick<UserListParams, 'type' | 'customerType'> =>
  !kind
    ? {}
    : kind.userType === 'student'
      ? { type: 'students' }
      : { type: 'partners', customerType: kind.customerType ?? undefined };

/**
 * my-users (spec §2, "partner see-user"): a partner school's own users, one tab per kind their
 * PARTNER_CAN_SEE_* permissions show. The server scopes GET /api/v1/users/ to the partner's customer
 * and those kinds; adding and importing are offered only for kinds with ADD_NEW_*.
 */
export function MyUsersPage() {
  const permissions = usePermissions();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [adding, setAdding] = useState(false);
  const kinds = visibleKinds(permissions);
  const addable = addableKinds(permissions);
  const tab = kinds.find((k) => k.slug === params.get('tab'));
  const tabValue = tab?.slug ?? ALL;
  const title = tab?.label ?? 'All my users';
  // Adding and importing start from the open tab's kind when it may be added.
  const addKind = tab && addable.includes(tab) ? tab : addable[0];

  return (
    <Stack gap="md">
      <title>{`My users · ${PRODUCT_NAME}`}</title>
      <Group justify="space-between" align="flex-end">
        <div>
          <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.6}>
            Your school
          </Text>
          <Title order={1} fz="h2">
            My users
          </Title>
        </div>
        {addKind && (
          <Group gap="xs">
            <Button
              variant="default"
              component={Link}
              to={`/my-users/import/${addKind.slug}`}
              leftSection={<Icon name="upload" size={16} />}
            >
              Import
            </Button>
            <Button leftSection={<Icon name="user" size={16} />} onClick={() => setAdding(true)}>
              Add user
            </Button>
          </Group>
        )}
      </Group>

      {kinds.length === 0 ? (
        <Alert color="gray" title="No users to show">
          Your account may not see any kind of user. Your school&apos;s super system administrator can give
          you the permission.
        </Alert>
      ) : (
        <Tabs
          value={tabValue}
          onChange={(value) => setParams(value && value !== ALL ? { tab: value } : {}, { replace: true })}
          keepMounted={false}
        >
          <Tabs.List aria-label="Kinds of users" mb="sm">
            <Tabs.Tab value={ALL}>All</Tabs.Tab>
            {kinds.map((k) => (
              <Tabs.Tab key={k.slug} value={k.slug}>
                {k.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <UserListPanel
            key={tabValue}
            title={title}
            filter={filterOf(tab)}
            showCustomer={false}
            roleAsType
            emptyText={tab ? `No ${tab.label.toLowerCase()} yet` : 'No users yet'}
            detailsPath={(user) => areaPaths.details('my-users', user.id)}
          />
        </Tabs>
      )}

      {addable.length > 0 && (
        <AddUserModal
          opened={adding}
          onClose={() => setAdding(false)}
          kinds={addable}
          defaultKind={addKind}
          onCreated={(id) => void navigate(areaPaths.details('my-users', id))}
        />
      )}
    </Stack>
  );
}

export default MyUsersPage;
