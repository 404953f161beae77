import { Alert, Button, Checkbox, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { notifySuccess } from '../../../shared/notify';
import {
  ACTION_PERMISSIONS,
  INTERNAL_PERMISSIONS,
  VIEW_PERMISSIONS,
  permissionLabel,
} from '../../../shared/permissions';
import { userCommands, useUserMutation, type UserView } from '../api';
import { actionErrorText } from './ConfirmDialog';

interface Section {
  title: string;
  permissions: readonly string[];
}

function sectionsFor(user: UserView): Section[] {
  if (user.user_type === 'partner')
    return [
      { title: 'View', permissions: VIEW_PERMISSIONS },
      { title: 'Actions', permissions: ACTION_PERMISSIONS },
    ];
  if (user.user_type === 'teacher' || user.user_type === 'super_admin')
    return [{ title: 'Internal permissions', permissions: INTERNAL_PERMISSIONS }];
  return [];
}

/**
 * The permission editor (PUT /api/v1/users/{id}/permissions with the complete list). Only the listed
 * permissions can be toggled; everything else the user holds (type marker, separately granted ones) is kept.
 */
export function PermissionsEditor({ user }: { user: UserView }) {
  const sections = useMemo(() => sectionsFor(user), [user]);
  const editable = useMemo(() => new Set(sections.flatMap((s) => s.permissions)), [sections]);
  const held = useMemo(() => new Set(user.permission_list), [user.permission_list]);
  const [draft, setDraft] = useState<Set<string> | null>(null);
  const chosen = draft ?? held;
  const dirty = draft !== null && [...editable].some((p) => draft.has(p) !== held.has(p));

  const save = useUserMutation((permissions: string[]) => userCommands.setPermissions(user.id, permissions), {
    silentErrors: true,
  });

  if (sections.length === 0) return null;

  const toggle = (permission: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(permission);
    else next.delete(permission);
    setDraft(next);
  };

  const submit = () => {
    const kept = user.permission_list.filter((p) => !editable.has(p));
    const list = [...kept, ...[...editable].filter((p) => chosen.has(p))];
    save.mutate(list, {
      onSuccess: () => {
        notifySuccess(`Permissions saved for ${user.full_name}.`);
        setDraft(null);
      },
    });
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h4">
          Permissions
        </Title>
        <Group gap="xs">
          {dirty && (
            <Button variant="default" size="xs" onClick={() => setDraft(null)}>
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
        {sections.map((section) => (
          <fieldset key={section.title} style={{ border: 0, padding: 0, margin: 0 }}>
            <Text component="legend" fw={600} size="sm" mb={6}>
              {section.title}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing={6}>
              {section.permissions.map((permission) => (
                <Checkbox
                  key={permission}
                  label={permissionLabel(permission)}
                  title={permission}
                  checked={chosen.has(permission)}
                  onChange={(e) => toggle(permission, e.currentTarget.checked)}
                />
              ))}
            </SimpleGrid>
          </fieldset>
        ))}
      </Stack>
    </Paper>
  );
}
