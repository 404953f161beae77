import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { canEditCustomers, isAdmin } from '../../../app/access';
import { usePermissions } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { customerUsers, customerUsersKey, customers } from '../api';
import { NameModal } from './NameModal';
import { AttendanceContactsCard } from '../../attendance/components/AttendanceContactsCard';

/** One customer and its users (routes customers/details/:id and customers/:id). */
export function CustomerDetailsPage() {
  const { id = '' } = useParams();
  const permissions = usePermissions();
  const mayEdit = canEditCustomers(permissions);
  const [renaming, setRenaming] = useState(false);
  const customer = customers.useOne(id, { silentErrors: false });
  const users = useQuery({
    queryKey: customerUsersKey(id),
    queryFn: () => customerUsers(id),
    enabled: customer.isSuccess,
  });
  const rename = customers.useCommand((name: string) => customers.update(id, { name }));

  if (customer.isPending) return <Skeleton height={120} />;
  if (customer.isError)
    return (
      <Alert color="gray" title="Customer not found">
        <Anchor component={Link} to="/customers">
          Back to customers
        </Anchor>
      </Alert>
    );
  return (
    <Stack gap="lg">
      <title>{`${customer.data.name} · ${PRODUCT_NAME}`}</title>
      {isAdmin(permissions) || mayEdit ? (
        <Anchor component={Link} to="/customers" size="sm">
          ← Customers
        </Anchor>
      ) : null}
      <Group justify="space-between">
        <Title order={1}>{customer.data.name}</Title>
        {mayEdit && (
          <Button variant="default" onClick={() => setRenaming(true)}>
            Rename
          </Button>
        )}
      </Group>
      <Card withBorder radius="md" p={0}>
        <Title order={2} fz="h5" p="md" pb={0}>
          Users
        </Title>
        {users.isPending ? (
          <Skeleton height={80} m="md" />
        ) : users.isError ? (
          <Text p="md" c="dimmed">
            You cannot see this customer's users.
          </Text>
        ) : users.data.items.length === 0 ? (
          <Text p="md" c="dimmed">
            No users yet.
          </Text>
        ) : (
          <Table verticalSpacing="xs" aria-label="Users of this customer">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.data.items.map((u) => (
                <Table.Tr key={u.id}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {u.full_name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {u.email}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{u.customer_profile?.type_label ?? u.type_label}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={u.status === 'active' ? 'teal' : 'gray'}>
                      {u.status}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      <AttendanceContactsCard customerId={id} />
      <NameModal
        title="Rename customer"
        opened={renaming}
        initial={customer.data.name}
        pending={rename.isPending}
        onClose={() => setRenaming(false)}
        onSave={(name) => rename.mutate(name, { onSuccess: () => setRenaming(false) })}
      />
    </Stack>
  );
}
