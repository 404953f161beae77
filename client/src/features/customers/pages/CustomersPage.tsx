import { Button, Text } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { canEditCustomers } from '../../../app/access';
import { formatInZone, viewerTimezone, DATE_FORMAT } from '../../../shared/dates';
import { usePermissions, useSession } from '../../../shared/session';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import { customers, type Customer } from '../api';
import { NameModal } from './NameModal';

/** Customers: the partner schools and organisations (route customers). */
export function CustomersPage() {
  const navigate = useNavigate();
  const timezone = viewerTimezone(useSession((s) => s.user));
  // Partners read their own customer; only customer editors add one (the API's rule).
  const mayAdd = canEditCustomers(usePermissions());
  const [adding, setAdding] = useState(false);
  const create = customers.useCommand((name: string) => customers.create({ name }), {
    also: ({ id }) => {
      setAdding(false);
      void navigate(`/customers/details/${id}`);
    },
  });

  return (
    <ResourceListPage<Customer>
      title="Customers"
      description="Partner schools and organisations, and their users."
      noun="customers"
      action={mayAdd ? <Button onClick={() => setAdding(true)}>Add customer</Button> : undefined}
      search={{ label: 'Search customers', placeholder: 'Search by name' }}
      useList={customers.useList}
      rowHref={(c) => `/customers/details/${c.id}`}
      empty={{ none: 'No customers yet.', search: 'No customer matches your search.' }}
      columns={[
        {
          accessor: 'name',
          title: 'Name',
          render: (c) => (
            <Text fw={500} size="sm">
              {c.name}
            </Text>
          ),
        },
        {
          accessor: 'created_at',
          title: 'Added',
          render: (c) => formatInZone(c.created_at, timezone, DATE_FORMAT),
        },
      ]}
    >
      <NameModal
        title="Add a customer"
        opened={adding}
        initial=""
        pending={create.isPending}
        onClose={() => setAdding(false)}
        onSave={(name) => create.mutate(name)}
      />
    </ResourceListPage>
  );
}
