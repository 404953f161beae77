import { Badge, Button, Text } from '@mantine/core';
import { INTERNAL_PERMISSIONS } from '@portal/projections/permissions';
import { useState } from 'react';
import { internalMay } from '../../../app/access';
import { usePermissions } from '../../../shared/session';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import { DELIVERY_MODE_LABELS, products, type Product, type ProductInput } from '../api';
import { ProductModal } from './ProductModal';

/** Products: what programmes sell (route products). Product editors add them here. */
export function ProductsPage() {
  const mayEdit = internalMay(usePermissions(), INTERNAL_PERMISSIONS.PRODUCT);
  const [adding, setAdding] = useState(false);
  const create = products.useCommand((input: ProductInput) => products.create(input), {
    silentErrors: true,
    success: (_r, input) => `${input.name} was added`,
  });

  return (
    <ResourceListPage<Product>
      title="Products"
      description="What programmes are sold as: how they are delivered, how long a lesson is and how many students a group takes."
      noun="products"
      action={mayEdit ? <Button onClick={() => setAdding(true)}>Add product</Button> : undefined}
      search={{ label: 'Search products', placeholder: 'Search by name' }}
      useList={products.useList}
      rowHref={(p) => `/products/${p.id}`}
      rowLabel={(p) => p.name}
      empty={{ none: 'No products yet.', search: 'No product matches your search.' }}
      columns={[
        {
          accessor: 'name',
          title: 'Name',
          render: (p) => (
            <Text fw={500} size="sm">
              {p.name}
            </Text>
          ),
        },
        {
          accessor: 'delivery_mode',
          title: 'Delivery',
          render: (p) => <Badge variant="light">{DELIVERY_MODE_LABELS[p.delivery_mode]}</Badge>,
        },
        {
          accessor: 'default_duration_minutes',
          title: 'Lesson',
          render: (p) => `${p.default_duration_minutes} min`,
        },
        {
          accessor: 'max_group_size',
          title: 'Largest group',
          render: (p) => (p.max_group_size === 1 ? '1 student' : `${p.max_group_size} students`),
        },
      ]}
    >
      <ProductModal
        opened={adding}
        onClose={() => setAdding(false)}
        onSave={(input) => create.mutateAsync(input)}
      />
    </ResourceListPage>
  );
}
