import { Paper, Select, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import { fieldMessage } from '../../shared/forms/field-message';
import type { CustomField } from './api';

/** A user's custom field values, read-only, in the order the administrator defined the fields. */
export function CustomFieldsCard({
  fields,
  values,
}: {
  fields: CustomField[];
  values: Record<string, string | number>;
}) {
  if (fields.length === 0) return null;
  return (
    <Paper withBorder radius="md" p="md" role="region" aria-label="Custom fields">
      <Title order={2} fz="h4" mb="sm">
        Custom fields
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
        {fields.map((f) => (
          <div key={f.id}>
            <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.4}>
              {f.name}
            </Text>
            {values[f.id] !== undefined ? (
              <Text size="sm">{values[f.id]}</Text>
            ) : f.required ? (
              <Text size="sm" c="orange.8" fw={600}>
                Required — not set yet
              </Text>
            ) : (
              <Text size="sm">—</Text>
            )}
          </div>
        ))}
      </SimpleGrid>
    </Paper>
  );
}

/** Inputs for a user's custom field values; each value is the input's text ('' = none). */
export function CustomFieldInputs({
  fields,
  values,
  errors,
  onChange,
}: {
  fields: CustomField[];
  values: Record<string, string>;
  /** Messages by `custom_fields.<id>`. */
  errors: Record<string, string>;
  onChange: (id: string, text: string) => void;
}) {
  if (fields.length === 0) return null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {fields.map((f) => {
        const error = fieldMessage(errors[`custom_fields.${f.id}`]);
        const common = { label: f.name, withAsterisk: f.required, error };
        if (f.type === 'select')
          return (
            <Select
              key={f.id}
              {...common}
              data={f.options}
              clearable={!f.required}
              value={values[f.id] || null}
              onChange={(value) => onChange(f.id, value ?? '')}
            />
          );
        return (
          <TextInput
            key={f.id}
            {...common}
            type={f.type === 'date' ? 'date' : f.type === 'number' ? 'number' : 'text'}
            inputMode={f.type === 'number' ? 'decimal' : undefined}
            value={values[f.id] ?? ''}
            onChange={(e) => onChange(f.id, e.currentTarget.value)}
          />
        );
      })}
    </SimpleGrid>
  );
}
