import { Alert, Anchor, Button, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../../../shared/api/client';
import { fieldMessage } from '../../../shared/forms/field-message';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { notifySuccess } from '../../../shared/notify';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import {
  templates,
  useAssignablePermissions,
  useTemplateMutation,
  type AssignablePermissions,
  type PermissionTemplate,
} from '../api';
import { PermissionChecklist } from '../PermissionChecklist';
import { fieldErrorsOf } from '../../../shared/api/field-errors';
import { actionErrorText } from '../../../shared/ui/action-error';
import { ConfirmDialog } from '../../../shared/ui/ConfirmDialog';

/** The path segment that opens an empty form (`permission-templates/new`). */
export const NEW_TEMPLATE = 'new';

function TemplateForm({
  template,
  assignable,
}: {
  template: PermissionTemplate | null;
  assignable: AssignablePermissions;
}) {
  const navigate = useNavigate();
  const [confirmDelete, setConfirmDelete] = useState(false);

  const save = useTemplateMutation((d: { name: string; permissions: string[] }) => {
    const permissions = assignable.items.map((p) => p.name).filter((p) => d.permissions.includes(p));
    return template
      ? templates.update(template.id, { name: d.name.trim(), permissions })
      : templates.create({ name: d.name.trim(), permissions });
  });
  const remove = useTemplateMutation(() => templates.remove(template!.id));

  const form = useServerForm(
    { name: template?.name ?? '', permissions: template?.permissions ?? [] },
    save.mutateAsync,
    {
      validate: (d) => ({ name: d.name.trim() ? undefined : 'Name is required' }),
      // A name taken by another template (409) is the name's error.
      errorsOf: (error) => {
        const fields = fieldErrorsOf(error);
        if (error instanceof ApiError && error.status === 409 && !fields?.name)
          return { ...fields, name: error.detailText ?? '' };
        return fields;
      },
      onSuccess: (result, d) => {
        notifySuccess(
          template ? `Template “${d.name.trim()}” saved.` : `Template “${d.name.trim()}” created.`,
        );
        if (!template) void navigate(`/permission-templates/${result.id}`, { replace: true });
      },
    },
  );
  const { draft, set, err } = form;
  const chosen = new Set(draft.permissions);
  const setChosen = (next: Set<string>) => set('permissions', [...next]);
  const errors = fieldErrorsOf(save.error);
  const conflict = save.error instanceof ApiError && save.error.status === 409;
  // The command's refusal stays above the form unless it was the name's.
  const nameRefused = err('name') !== undefined || errors?.name !== undefined || conflict;

  const sections = [
    { title: 'View', permissions: assignable.view },
    { title: 'Actions', permissions: assignable.action },
  ];

  return (
    <form onSubmit={form.onSubmit} noValidate>
      <Paper withBorder radius="md" p="md">
        <Stack gap="md">
          <TextInput
            label="Name"
            required
            value={draft.name}
            maxLength={200}
            onChange={(e) => set('name', e.currentTarget.value)}
            error={err('name')}
            w={{ base: '100%', sm: 420 }}
          />
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {chosen.size} of {assignable.items.length} permissions chosen
            </Text>
            <Group gap="xs">
              <Button
                size="compact-sm"
                variant="subtle"
                onClick={() => setChosen(new Set(assignable.items.map((p) => p.name)))}
              >
                Choose all
              </Button>
              <Button size="compact-sm" variant="subtle" onClick={() => setChosen(new Set())}>
                Clear
              </Button>
            </Group>
          </Group>
          <PermissionChecklist
            sections={sections}
            chosen={chosen}
            onToggle={(permission, on) => {
              const next = new Set(chosen);
              if (on) next.add(permission);
              else next.delete(permission);
              setChosen(next);
            }}
          />
          {save.error != null && !nameRefused && (
            <Alert color="red" role="alert" title="Template not saved">
              {fieldMessage(errors?.permissions) ?? actionErrorText(save.error)}
            </Alert>
          )}
          <Group justify="space-between">
            {template ? (
              <Button variant="light" color="red" onClick={() => setConfirmDelete(true)}>
                Delete template
              </Button>
            ) : (
              <span />
            )}
            <Group gap="xs">
              <Button variant="default" component={Link} to="/permission-templates">
                Cancel
              </Button>
              <Button type="submit" loading={form.pending}>
                {template ? 'Save template' : 'Create template'}
              </Button>
            </Group>
          </Group>
        </Stack>
      </Paper>
      {template && (
        <ConfirmDialog
          opened={confirmDelete}
          title="Delete this template?"
          message={`“${template.name}” will no longer be offered when editing permissions. Users who were given permissions from it keep them.`}
          confirmLabel="Delete template"
          danger
          pending={remove.isPending}
          error={remove.error}
          onClose={() => setConfirmDelete(false)}
          onConfirm={() => {
            const name = template.name;
            // mutateAsync, not mutate's onSuccess: the command refreshes the template's query first, which
            // now answers 404 and unmounts this dialog, and mutate's own callbacks are dropped on unmount.
            remove.mutateAsync(undefined).then(
              () => {
                notifySuccess(`Template “${name}” deleted.`);
                void navigate('/permission-templates', { replace: true });
              },
              () => undefined, // shown in the dialog through remove.error
            );
          }}
        />
      )}
    </form>
  );
}

/** permission-templates/:id (spec §2): create (`new`) or edit a template's name and permissions. */
export function PermissionTemplatePage() {
  const { id = NEW_TEMPLATE } = useParams();
  const creating = id === NEW_TEMPLATE;
  const template = templates.useOne(creating ? null : id);
  const assignable = useAssignablePermissions();
  const title = creating ? 'New permission template' : (template.data?.name ?? 'Permission template');
  const error = template.error ?? assignable.error;
  const notFound = template.error instanceof ApiError && template.error.status === 404;

  return (
    <Stack gap="md">
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <div>
        <Anchor component={Link} to="/permission-templates" size="sm">
          ← Permission templates
        </Anchor>
        <Title order={1} fz="h2">
          {title}
        </Title>
      </div>
      {error != null ? (
        <Alert
          color="red"
          role="alert"
          title={notFound ? 'Template not found' : 'Could not load the template'}
        >
          {notFound ? 'This template does not exist or was deleted.' : actionErrorText(error)}
        </Alert>
      ) : assignable.data && (creating || template.data) ? (
        <TemplateForm
          key={template.data?.updated_at ?? 'new'}
          template={creating ? null : (template.data ?? null)}
          assignable={assignable.data}
        />
      ) : (
        <Skeleton height={320} radius="md" aria-label="Loading template" />
      )}
    </Stack>
  );
}

export default PermissionTemplatePage;
