import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { isAdmin } from '../../../app/access';
import { ApiError } from '../../../shared/api/client';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { notifySuccess } from '../../../shared/notify';
import { usePermissions, useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { Icon } from '../../../shared/ui/icons';
import { ScreenSkeleton } from '../../../shared/ui/ScreenSkeleton';
import {
  CUSTOMER_ROLE_LABELS,
  userCommands,
  useUser,
  useUserMutation,
  type CustomerRole,
  type UpdateUserInput,
  type UserView,
} from '../api';
import { useCustomFields, type CustomField } from '../../custom-fields/api';
import { CustomFieldInputs } from '../../custom-fields/CustomFieldValues';
import { changedValues, valueFromInput } from '../../custom-fields/custom-fields';
import { CustomerSelect } from '../components/CustomerSelect';
import { areaPaths, mayActOn, viewerIsParent, type UsersArea } from '../my-users';
import { fieldErrorsOf } from '../../../shared/api/field-errors';
import { actionErrorText } from '../../../shared/ui/action-error';

const ROLE_OPTIONS = Object.entries(CUSTOMER_ROLE_LABELS).map(([value, label]) => ({ value, label }));

interface Draft {
  first_name: string;
  last_name: string;
  email: string;
  timezone: string;
  notes: string;
  customer_id: string | null;
  customer_type: CustomerRole | null;
  password: string;
}

const draftOf = (u: UserView): Draft => ({
  first_name: u.first_name,
  last_name: u.last_name,
  email: u.email,
  timezone: u.timezone,
  notes: u.notes ?? '',
  customer_id: u.customer_id,
  customer_type: u.customer_profile?.type ?? null,
  password: '',
});

/** Only the fields that changed, so the event records what was edited. */
function changesOf(before: Draft, after: Draft): UpdateUserInput {
  const out: UpdateUserInput = {};
  if (after.first_name.trim() !== before.first_name) out.first_name = after.first_name.trim();
  if (after.last_name.trim() !== before.last_name) out.last_name = after.last_name.trim();
  if (after.email.trim() !== before.email) out.email = after.email.trim();
  if (after.timezone.trim() !== before.timezone) out.timezone = after.timezone.trim() || null;
  if (after.notes !== before.notes) out.notes = after.notes.trim() ? after.notes : null;
  if (after.customer_id !== before.customer_id) out.customer_id = after.customer_id;
  if (after.customer_type !== before.customer_type) out.customer_type = after.customer_type;
  if (after.password) out.password = after.password;
  return out;
}

/** A 422 naming a custom field ("custom_fields.<id>: ...") → that input's message. */
function customFieldErrorOf(error: unknown): Record<string, string> | undefined {
  const detail = error instanceof ApiError && error.status === 422 ? error.detailText : undefined;
  const match = detail ? /^(custom_fields\.[0-9a-f-]+): (.+)$/s.exec(detail) : null;
  return match ? { [match[1]!]: match[2]! } : undefined;
}

function EditForm({
  user,
  area,
  customFields,
}: {
  user: UserView;
  area: UsersArea;
  customFields: CustomField[];
}) {
  const navigate = useNavigate();
  const permissions = usePermissions();
  const admin = isAdmin(permissions);
  const showNotes = admin || !viewerIsParent(useSession((state) => state.user));
  const canEdit = mayActOn(permissions, 'edit', user);
  const canPassword = mayActOn(permissions, 'password', user);
  const detailsPath = areaPaths.details(area, user.id);
  const [custom, setCustom] = useState<Record<string, string>>(() =>
    Object.fromEntries(Object.entries(user.custom_fields ?? {}).map(([id, v]) => [id, String(v)])),
  );
  const save = useUserMutation((body: UpdateUserInput) => userCommands.update(user.id, body), {
    silentErrors: true,
  });
  const form = useServerForm(
    () => draftOf(user),
    () => save.mutateAsync(changes),
    {
      validate: (d) =>
        canEdit
          ? {
              first_name: d.first_name.trim() ? undefined : 'first_name should not be empty',
              last_name: d.last_name.trim() ? undefined : 'last_name should not be empty',
              email: d.email.trim() ? undefined : 'email should not be empty',
            }
          : {},
      errorsOf: (error) => customFieldErrorOf(error) ?? fieldErrorsOf(error),
      onSuccess: () => {
        notifySuccess('Changes saved.');
        void navigate(detailsPath);
      },
    },
  );
  const { draft, set, err } = form;
  const customChanges = changedValues(
    user.custom_fields ?? {},
    Object.fromEntries(customFields.map((f) => [f.id, valueFromInput(f.type, custom[f.id] ?? '')])),
  );
  const changes: UpdateUserInput = {
    ...changesOf(form.initial, form.draft),
    ...(Object.keys(customChanges).length ? { custom_fields: customChanges } : {}),
  };
  const changed = Object.keys(changes).length > 0;
  return (
    <Paper withBorder radius="md" p="lg" maw={760}>
      <form onSubmit={form.onSubmit} noValidate>
        <Stack gap="sm">
          {form.failure != null && (
            <Alert color="red" role="alert" title="Not saved">
              {actionErrorText(form.failure)}
            </Alert>
          )}
          {canEdit && (
            <>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="First name"
                  withAsterisk
                  value={draft.first_name}
                  onChange={(e) => set('first_name', e.currentTarget.value)}
                  error={err('first_name')}
                />
                <TextInput
                  label="Last name"
                  withAsterisk
                  value={draft.last_name}
                  onChange={(e) => set('last_name', e.currentTarget.value)}
                  error={err('last_name')}
                />
              </SimpleGrid>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="E-mail"
                  type="email"
                  withAsterisk
                  value={draft.email}
                  onChange={(e) => set('email', e.currentTarget.value)}
                  error={err('email')}
                />
                <TextInput
                  label="Timezone"
                  placeholder="Europe/London"
                  value={draft.timezone}
                  onChange={(e) => set('timezone', e.currentTarget.value)}
                  error={err('timezone')}
                />
              </SimpleGrid>
              {admin && (user.user_type === 'partner' || user.user_type === 'student') && (
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <CustomerSelect
                    required
                    value={draft.customer_id}
                    knownName={user.customer_name}
                    onChange={(value) => set('customer_id', value)}
                    error={err('customer_id')}
                  />
                  {user.user_type === 'partner' && (
                    <Select
                      label="Customer role"
                      withAsterisk
                      data={ROLE_OPTIONS}
                      value={draft.customer_type}
                      onChange={(value) => set('customer_type', value as CustomerRole | null)}
                      error={err('customer_type')}
                    />
                  )}
                </SimpleGrid>
              )}
              {showNotes && (
                <Textarea
                  label="Notes"
                  autosize
                  minRows={3}
                  value={draft.notes}
                  onChange={(e) => set('notes', e.currentTarget.value)}
                  error={err('notes')}
                />
              )}
            </>
          )}
          {canPassword && (
            <PasswordInput
              label="New password"
              description="Leave empty to keep the current one. Setting one ends the user's sessions."
              value={draft.password}
              onChange={(e) => set('password', e.currentTarget.value)}
              error={err('password')}
              autoComplete="new-password"
            />
          )}
          {customFields.length > 0 && (
            <CustomFieldInputs
              fields={customFields}
              values={custom}
              errors={form.errors}
              onChange={(id, text) => {
                setCustom((c) => ({ ...c, [id]: text }));
                form.clearError(`custom_fields.${id}`);
              }}
            />
          )}
          <Group justify="flex-end" mt="xs">
            <Button variant="default" component={Link} to={detailsPath}>
              Cancel
            </Button>
            <Button type="submit" disabled={!changed} loading={form.pending}>
              Save changes
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/**
 * users/:id and my-users/:type/:id: edit a user's profile and set their password (PUT
 * /api/v1/users/{id}, changed fields only). A partner gets the profile fields only with the matching
 * PARTNER_CAN_EDIT_* permission and the password only with CHANGE_PASSWORD_FOR_SELECTED_USER.
 */
export function UserEditPage({ area = 'users' }: { area?: UsersArea }) {
  const { id = '' } = useParams();
  const permissions = usePermissions();
  const query = useUser(id);
  const admin = isAdmin(permissions);
  // Administrators edit custom field values (the definitions are admin-only to read).
  const customFields = useCustomFields({ enabled: admin });
  if (query.isPending || (admin && customFields.isPending)) return <ScreenSkeleton rows={4} />;
  if (query.isError)
    return (
      <Alert color="red" role="alert" title="The user could not be loaded">
        {actionErrorText(query.error)}
      </Alert>
    );
  const user = query.data;
  const mayChange = mayActOn(permissions, 'edit', user) || mayActOn(permissions, 'password', user);
  return (
    <Stack gap="md">
      <title>{`Edit ${user.full_name} · ${PRODUCT_NAME}`}</title>
      <Anchor component={Link} to={areaPaths.details(area, user.id)} size="sm">
        <Group gap={4}>
          <Icon name="arrowLeft" size={14} /> {user.full_name}
        </Group>
      </Anchor>
      <div>
        <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.6}>
          {user.type_label}
        </Text>
        <Title order={1} fz="h2">
          Edit {user.full_name}
        </Title>
      </div>
      {customFields.isError && (
        <Alert color="yellow" title="Custom fields could not be loaded">
          {actionErrorText(customFields.error)} Their values cannot be edited until the page is reloaded.
        </Alert>
      )}
      {mayChange ? (
        // Keyed by id: the form starts from the loaded user and is not reset by live refetches.
        <EditForm key={user.id} user={user} area={area} customFields={customFields.data?.items ?? []} />
      ) : (
        <Alert color="gray" title="Read only" maw={760}>
          You may see {user.full_name} but not change their profile or password. Your school&apos;s super
          system administrator can give you the permission.
        </Alert>
      )}
    </Stack>
  );
}

export default UserEditPage;
