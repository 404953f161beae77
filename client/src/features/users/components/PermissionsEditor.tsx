import { Alert, Button, Group, Paper, Select, Skeleton, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { apiRequest } from '../../../shared/api/client';
import type { Page } from '../../../shared/api/types';
import { notifySuccess } from '../../../shared/notify';
import { applyTemplate } from '../../permission-templates/apply-template';
import { templates, type PermissionTemplate } from '../../permission-templates/api';
import { PermissionChecklist, type ChecklistSection } from '../../permission-templates/PermissionChecklist';
import { KIND_TITLES, usePermissionCatalogue, type PermissionInfo } from '../../permissions/api';
import { userCommands, useUserMutation, type UserView } from '../api';
import { actionErrorText } from '../../../shared/ui/action-error';

/** The sections a user's type can hold, from the server's catalogue (GET /api/v1/permissions). */
function sectionsFor(user: UserView, catalogue: readonly PermissionInfo[]): ChecklistSection[] {
  const of = (kind: PermissionInfo['kind']) => ({
    title: KIND_TITLES[kind],
    permissions: catalogue.filter((p) => p.kind === kind),
  });
  if (user.user_type === 'partner') return [of('view'), of('action')];
  if (user.user_type === 'teacher' || user.user_type === 'super_admin') return [of('internal')];
  return [];
}

/** Every template (the select offers them all; an organisation has a handful). */
function useTemplatesForSelect(enabled: boolean) {
  return useQuery({
    queryKey: templates.keys.other('select'),
    enabled,
    queryFn: ({ signal }) =>
      apiRequest<Page<PermissionTemplate>>('/api/v1/permission-templates/', {
        signal,
        query: { page: 1, size: 500 },
      }),
    meta: { silentErrors: true },
  });
}

/**
 * The permission editor (PUT /api/v1/users/{id}/permissions with the complete list). Only the listed
 * permissions can be toggled; everything else the user holds (type marker, separately granted ones) is
 * kept. For partner users, "Apply template" fills the checkboxes from a permission template.
 */
export function PermissionsEditor({ user }: { user: UserView }) {
  const catalogue = usePermissionCatalogue();
  const sections = useMemo(() => sectionsFor(user, catalogue.data?.items ?? []), [user, catalogue.data]);
  const editable = useMemo(
    () => new Set(sections.flatMap((s) => s.permissions.map((p) => p.name))),
    [sections],
  );
  const held = useMemo(() => new Set(user.permission_list), [user.permission_list]);
  const [draft, setDraft] = useState<Set<string> | null>(null);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const chosen = draft ?? held;
  const dirty = draft !== null && [...editable].some((p) => draft.has(p) !== held.has(p));
  const partner = user.user_type === 'partner';
  const templates = useTemplatesForSelect(partner);

  const save = useUserMutation((permissions: string[]) => userCommands.setPermissions(user.id, permissions), {
    silentErrors: true,
  });

  if (user.user_type === 'student') return null;

  const toggle = (permission: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(permission);
    else next.delete(permission);
    setDraft(next);
  };

  const onTemplateChosen = (id: string | null) => {
    setTemplateId(id);
    const template = templates.data?.items.find((t) => t.id === id);
    if (!template) return;
    setDraft(applyTemplate(chosen, editable, template.permissions));
  };

  const submit = () => {
    const kept = user.permission_list.filter((p) => !editable.has(p));
    const list = [...kept, ...[...editable].filter((p) => chosen.has(p))];
    // mutateAsync, not mutate's callbacks: the refetch after the save changes `updated_at`, which
    // remounts this editor (its key) and would drop a per-call onSuccess before it runs.
    save.mutateAsync(list).then(
      () => {
        notifySuccess(`Permissions saved for ${user.full_name}.`);
        setDraft(null);
        setTemplateId(null);
      },
      () => undefined, // shown in the alert above
    );
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" mb="sm" align="flex-end">
        <Title order={2} fz="h4">
          Permissions
        </Title>
        <Group gap="xs" align="flex-end">
          {partner && (
            <Select
              label="Apply template"
              placeholder={templates.data?.items.length === 0 ? 'No templates yet' : 'Choose a template'}
              size="xs"
              w={240}
              data={(templates.data?.items ?? []).map((t) => ({ value: t.id, label: t.name }))}
              value={templateId}
              onChange={onTemplateChosen}
              disabled={!templates.data || templates.data.items.length === 0}
              clearable
            />
          )}
          {dirty && (
            <Button
              variant="default"
              size="xs"
              onClick={() => {
                setDraft(null);
                setTemplateId(null);
              }}
            >
              Discard changes
            </Button>
          )}
          <Button size="xs" onClick={submit} disabled={!dirty} loading={save.isPending}>
            Save permissions
          </Button>
        </Group>
      </Group>
      <Stack gap="md">
        {save.error != null && (
          <Alert color="red" role="alert" title="Permissions not saved">
            {actionErrorText(save.error)}
          </Alert>
        )}
        {catalogue.isError ? (
          <Alert color="red" role="alert" title="The permission catalogue could not be loaded">
            {actionErrorText(catalogue.error)}
          </Alert>
        ) : catalogue.isPending ? (
          <Skeleton height={120} radius="sm" aria-label="Loading permissions" />
        ) : (
          <PermissionChecklist sections={sections} chosen={chosen} onToggle={toggle} />
        )}
      </Stack>
    </Paper>
  );
}
