import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { fieldMessage } from '../../../shared/forms/field-message';
import { notifySuccess } from '../../../shared/notify';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { ScreenSkeleton } from '../../../shared/ui/ScreenSkeleton';
import {
  CUSTOM_FIELD_TYPE_LABELS,
  customFieldsKey,
  saveCustomFields,
  useCustomFields,
  type CustomField,
  type CustomFieldType,
} from '../api';
import { changed, definitionErrors, draftsOf, itemsOf, type FieldDraft } from '../custom-fields';
import { actionErrorText } from '../../../shared/ui/action-error';

const TYPE_OPTIONS = Object.entries(CUSTOM_FIELD_TYPE_LABELS).map(([value, label]) => ({ value, label }));

let nextKey = 0;

/** fields: the administrator-defined custom user fields (GET/PUT /api/v1/users/custom_fields). */
export function CustomFieldsPage() {
  const query = useCustomFields();
  return (
    <Stack gap="md">
      <title>{`Custom fields · ${PRODUCT_NAME}`}</title>
      <div>
        <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.6}>
          Users
        </Text>
        <Title order={1} fz="h2">
          Custom fields
        </Title>
        <Text c="dimmed" size="sm" maw={720}>
          Extra details kept on every user’s profile, beyond the standard ones. Each user’s values are shown
          and edited on their page.
        </Text>
      </div>
      {query.isPending ? (
        <ScreenSkeleton rows={3} />
      ) : query.isError ? (
        <Alert color="red" role="alert" title="The custom fields could not be loaded">
          {actionErrorText(query.error)}
          <Group mt="sm">
            <Button size="xs" variant="default" onClick={() => void query.refetch()}>
              Try again
            </Button>
          </Group>
        </Alert>
      ) : (
        // Restarts from the server's list after each save (updated_at changes).
        <DefinitionsForm key={query.data.updated_at ?? 'none'} fields={query.data.items} />
      )}
    </Stack>
  );
}

function DefinitionsForm({ fields }: { fields: CustomField[] }) {
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<FieldDraft[]>(() => draftsOf(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    meta: { silentErrors: true },
    mutationFn: () => saveCustomFields(itemsOf(drafts)),
    onSuccess: () => {
      notifySuccess('Custom fields saved.');
      return queryClient.invalidateQueries({ queryKey: customFieldsKey });
    },
    onError: (error) => setErrors(definitionErrors(error)),
  });
  const dirty = changed(fields, drafts);

  const update = (index: number, patch: Partial<FieldDraft>) => {
    setDrafts((list) => list.map((d, i) => (i === index ? { ...d, ...patch } : d)));
    setErrors(({ [`items.${index}.name`]: _n, [`items.${index}.options`]: _o, items: _i, ...rest }) => rest);
  };
  const add = () => {
    setDrafts((list) => [
      ...list,
      { key: `new-${nextKey++}`, name: '', type: 'text', options: [], required: false },
    ]);
  };
  const remove = (index: number) => {
    setDrafts((list) => list.filter((_, i) => i !== index));
    // Messages are by position: they no longer fit once a row is removed.
    setErrors({});
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const local: Record<string, string> = {};
    drafts.forEach((d, i) => {
      if (!d.name.trim()) local[`items.${i}.name`] = 'Give the field a name';
      if (d.type === 'select' && d.options.length === 0)
        local[`items.${i}.options`] = 'A choice field needs at least one option';
    });
    if (Object.keys(local).length) return setErrors(local);
    save.mutate();
  };

  const err = (key: string) => fieldMessage(errors[key]);
  const unplaced = errors.items;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm" maw={960}>
        {drafts.length === 0 && (
          <Paper withBorder radius="md" p="lg">
            <Text fw={600}>No custom fields yet</Text>
            <Text size="sm" c="dimmed">
              Add a field, for example “Dietary needs” or “School year”, then save.
            </Text>
          </Paper>
        )}
        {drafts.map((d, i) => {
          const label = d.name.trim() || `field ${i + 1}`;
          return (
            <Paper
              key={d.key}
              withBorder
              radius="md"
              p="md"
              role="group"
              aria-label={`Custom field ${i + 1}`}
            >
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                <TextInput
                  label="Name"
                  withAsterisk
                  maxLength={100}
                  value={d.name}
                  onChange={(e) => update(i, { name: e.currentTarget.value })}
                  error={err(`items.${i}.name`)}
                />
                <Select
                  label="Type"
                  data={TYPE_OPTIONS}
                  allowDeselect={false}
                  value={d.type}
                  onChange={(value) => update(i, { type: (value ?? 'text') as CustomFieldType })}
                />
                <Group align="flex-end" justify="space-between" wrap="nowrap">
                  <Checkbox
                    label="Required"
                    description="Needed when a user is created"
                    checked={d.required}
                    onChange={(e) => update(i, { required: e.currentTarget.checked })}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={`Remove ${label}`}
                    title={`Remove ${label}`}
                    onClick={() => remove(i)}
                  >
                    ✕
                  </ActionIcon>
                </Group>
              </SimpleGrid>
              {d.type === 'select' && (
                <TagsInput
                  mt="sm"
                  label="Options"
                  description="Type an option and press Enter"
                  value={d.options}
                  onChange={(options) => update(i, { options })}
                  error={err(`items.${i}.options`)}
                />
              )}
            </Paper>
          );
        })}
        {unplaced && (
          <Alert color="red" role="alert" title="Not saved">
            {fieldMessage(unplaced)}
          </Alert>
        )}
        {save.isError && Object.keys(errors).length === 0 && (
          <Alert color="red" role="alert" title="Not saved">
            {actionErrorText(save.error)}
          </Alert>
        )}
        <Group justify="space-between">
          <Button variant="default" onClick={add}>
            Add field
          </Button>
          <Group gap="xs">
            <Button
              variant="subtle"
              disabled={!dirty || save.isPending}
              onClick={() => {
                setDrafts(draftsOf(fields));
                setErrors({});
              }}
            >
              Discard changes
            </Button>
            <Button type="submit" disabled={!dirty} loading={save.isPending}>
              Save changes
            </Button>
          </Group>
        </Group>
        {fields.length > 0 && (
          <Text size="xs" c="dimmed">
            Removing a field hides its values on every user’s page; saving the list replaces it as a whole.
          </Text>
        )}
      </Stack>
    </form>
  );
}

export default CustomFieldsPage;
