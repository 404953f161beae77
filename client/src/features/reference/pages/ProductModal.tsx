import {
  Alert,
  Button,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
} from '@mantine/core';
import { useEffect } from 'react';
import { ApiError } from '../../../shared/api/client';
import { useServerForm } from '../../../shared/forms/useServerForm';
import {
  DELIVERY_MODE_LABELS,
  referenceErrorsOf,
  type DeliveryMode,
  type Product,
  type ProductInput,
} from '../api';

const MODES = Object.entries(DELIVERY_MODE_LABELS).map(([value, label]) => ({ value, label }));

interface Draft {
  name: string;
  delivery_mode: DeliveryMode | null;
  default_duration_minutes: number | string;
  max_group_size: number | string;
}

const draftOf = (p?: Product): Draft =>
  p
    ? {
        name: p.name,
        delivery_mode: p.delivery_mode,
        default_duration_minutes: p.default_duration_minutes,
        max_group_size: p.max_group_size,
      }
    : { name: '', delivery_mode: null, default_duration_minutes: 60, max_group_size: 1 };

/** Add or edit a product (name, delivery mode, default lesson length, largest group); the server checks the rules. */
export function ProductModal({
  opened,
  product,
  onClose,
  onSave,
}: {
  opened: boolean;
  /** The product edited, or none to add one. */
  product?: Product;
  onClose: () => void;
  onSave: (input: ProductInput) => Promise<unknown>;
}) {
  const form = useServerForm<Draft>(
    () => draftOf(product),
    (d) =>
      onSave({
        name: d.name.trim(),
        delivery_mode: d.delivery_mode!,
        default_duration_minutes: Number(d.default_duration_minutes),
        max_group_size: Number(d.max_group_size),
      }),
    {
      validate: (d) => ({
        name: d.name.trim() ? undefined : 'Name is required',
        delivery_mode: d.delivery_mode ? undefined : 'Choose how it is delivered',
        default_duration_minutes: d.default_duration_minutes === '' ? 'Lesson length is required' : undefined,
        max_group_size: d.max_group_size === '' ? 'Group size is required' : undefined,
      }),
      errorsOf: referenceErrorsOf,
      onSuccess: () => onClose(),
    },
  );
  const { draft, set, err } = form;
  useEffect(() => {
    if (opened) form.reset(draftOf(product));
  }, [opened, product]);

  const failure =
    form.failure instanceof ApiError
      ? (form.failure.detailText ?? `Not saved (error ${form.failure.status}).`)
      : form.failure
        ? 'Not saved.'
        : null;

  return (
    <Modal opened={opened} onClose={onClose} title={product ? 'Edit product' : 'Add a product'} centered>
      <form onSubmit={form.onSubmit} noValidate>
        <Stack gap="sm">
          {failure && (
            <Alert color="red" role="alert" title="Not saved">
              {failure}
            </Alert>
          )}
          <TextInput
            label="Name"
            withAsterisk
            data-autofocus
            value={draft.name}
            onChange={(e) => set('name', e.currentTarget.value)}
            error={err('name')}
          />
          <Select
            label="Delivery"
            withAsterisk
            data={MODES}
            value={draft.delivery_mode}
            allowDeselect={false}
            onChange={(value) => {
              set('delivery_mode', value as DeliveryMode | null);
              if (value === 'online-1to1') set('max_group_size', 1);
            }}
            error={err('delivery_mode')}
          />
          <SimpleGrid cols={2}>
            <NumberInput
              label="Lesson length (minutes)"
              description="15 to 720"
              withAsterisk
              min={15}
              max={720}
              allowDecimal={false}
              clampBehavior="none"
              value={draft.default_duration_minutes}
              onChange={(value) => set('default_duration_minutes', value)}
              error={err('default_duration_minutes')}
            />
            <NumberInput
              label="Largest group"
              description="1 to 60 students"
              withAsterisk
              min={1}
              max={60}
              allowDecimal={false}
              clampBehavior="none"
              value={draft.max_group_size}
              onChange={(value) => set('max_group_size', value)}
              error={err('max_group_size')}
            />
          </SimpleGrid>
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={form.pending}>
              {product ? 'Save' : 'Add product'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
