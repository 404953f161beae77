import { Alert, Anchor, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { INTERNAL_PERMISSIONS } from '@portal/projections/permissions';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { internalMay } from '../../../app/access';
import { ApiError } from '../../../shared/api/client';
import { formatInZone, viewerTimezone, DATE_FORMAT } from '../../../shared/dates';
import { usePermissions, useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { DELIVERY_MODE_LABELS, products, type ProductInput } from '../api';
import { ProductModal } from './ProductModal';

/** One product (route products/:id): its details, and an edit form for product editors. */
export function ProductDetailsPage() {
  const { id = '' } = useParams();
  const mayEdit = internalMay(usePermissions(), INTERNAL_PERMISSIONS.PRODUCT);
  const timezone = viewerTimezone(useSession((s) => s.user));
  const [editing, setEditing] = useState(false);
  const product = products.useOne(id);
  const update = products.useCommand((input: ProductInput) => products.update(id, input), {
    silentErrors: true,
    success: 'Product saved',
  });

  if (product.isPending) return <Skeleton height={160} aria-label="Loading the product" />;
  if (product.isError)
    return (
      <Alert
        color="gray"
        title={
          product.error instanceof ApiError && product.error.status === 404
            ? 'Product not found'
            : 'Could not load the product'
        }
      >
        <Group gap="sm">
          <Button size="xs" variant="default" onClick={() => void product.refetch()}>
            Retry
          </Button>
          <Anchor component={Link} to="/products">
            Back to products
          </Anchor>
        </Group>
      </Alert>
    );
  const p = product.data;
  const facts: [string, string][] = [
    ['Delivery', DELIVERY_MODE_LABELS[p.delivery_mode]],
    ['Lesson length', `${p.default_duration_minutes} minutes`],
    ['Largest group', p.max_group_size === 1 ? '1 student' : `${p.max_group_size} students`],
    ['Added', formatInZone(p.created_at, timezone, DATE_FORMAT)],
    ['Last changed', formatInZone(p.updated_at, timezone, DATE_FORMAT)],
  ];
  return (
    <Stack gap="lg">
      <title>{`${p.name} · ${PRODUCT_NAME}`}</title>
      <Anchor component={Link} to="/products" size="sm">
        ← Products
      </Anchor>
      <Group justify="space-between">
        <Title order={1}>{p.name}</Title>
        {mayEdit && (
          <Button variant="default" onClick={() => setEditing(true)}>
            Edit
          </Button>
        )}
      </Group>
      <Card withBorder radius="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }} component="dl" m={0}>
          {facts.map(([label, value]) => (
            <div key={label}>
              <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
                {label}
              </Text>
              <Text component="dd" m={0} size="sm">
                {value}
              </Text>
            </div>
          ))}
        </SimpleGrid>
      </Card>
      <ProductModal
        opened={editing}
        product={p}
        onClose={() => setEditing(false)}
        onSave={(input) => update.mutateAsync(input)}
      />
    </Stack>
  );
}
