import {
  Alert,
  Button,
  Group,
  Modal,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useEffect } from 'react';
import { ApiError } from '../../../shared/api/client';
import { notifySuccess } from '../../../shared/notify';
import { useServerForm } from '../../../shared/forms/useServerForm';
import {
  CUSTOMER_ROLE_LABELS,
  LIST_TYPE_TO_USER_TYPE,
  USER_TYPE_OPTIONS,
  createUser,
  useUserMutation,
  type CreateUserInput,
  type CustomerRole,
  type ListType,
  type UserTypeName,
} from '../api';
import type { MyUserKind } from '../my-users';
import { CustomerSelect } from './CustomerSelect';
import { fieldErrorsOf } from '../../../shared/api/field-errors';

interface AddUserModalProps {
  opened: boolean;
  onClose: () => void;
  defaultType?: ListType;
  onCreated?: (id: string) => void;
  /**
   * A partner adding a user of their own school: only these kinds are offered (their ADD_NEW_*
   * permissions) and the customer is theirs (the server sets it).
   */
  kinds?: readonly MyUserKind[];
  /** The kind chosen first (the my-users tab that is open). */
  defaultKind?: MyUserKind;
}

interface Draft {
  first_name: string;
  last_name: string;
  email: string;
  user_type: UserTypeName | null;
  customer_id: string | null;
  customer_type: CustomerRole | null;
  /** Partner mode: the chosen kind's slug. */
  kind: string | null;
  timezone: string;
  password: string;
  notes: string;
}

const empty = (type?: ListType, kind?: MyUserKind): Draft => ({
  first_name: '',
  last_name: '',
  email: '',
  user_type: type ? LIST_TYPE_TO_USER_TYPE[type] : null,
  customer_id: null,
  customer_type: null,
  kind: kind?.slug ?? null,
  timezone: '',
  password: '',
  notes: '',
});

const ROLE_OPTIONS = Object.entries(CUSTOMER_ROLE_LABELS).map(([value, label]) => ({ value, label }));

/** "Add user" (POST /api/v1/users/). Server field errors (422 errors[]) are shown on their fields (spec §5). */
export function AddUserModal({
  opened,
  onClose,
  defaultType,
  onCreated,
  kinds,
  defaultKind,
}: AddUserModalProps) {
  const mutation = useUserMutation(createUser, { silentErrors: true });
  const partnerMode = kinds !== undefined;
  const kindOf = (d: Draft) => kinds?.find((k) => k.slug === d.kind);
  const userTypeOf = (d: Draft) => (partnerMode ? (kindOf(d)?.userType ?? null) : d.user_type);
  const needsCustomerFor = (type: UserTypeName | null) =>
    !partnerMode && (type === 'partner' || type === 'student');

  const bodyOf = (d: Draft): CreateUserInput => {
    const userType = userTypeOf(d)!;
    const customerType = partnerMode ? (kindOf(d)?.customerType ?? null) : d.customer_type;
    return {
      email: d.email.trim(),
      first_name: d.first_name.trim(),
      last_name: d.last_name.trim(),
      user_type: userType,
      ...(needsCustomerFor(userType) && d.customer_id ? { customer_id: d.customer_id } : {}),
      ...(userType === 'partner' && customerType ? { customer_type: customerType } : {}),
      ...(d.timezone.trim() ? { timezone: d.timezone.trim() } : {}),
      ...(d.password ? { password: d.password } : {}),
      ...(d.notes.trim() ? { notes: d.notes.trim() } : {}),
    };
  };

  const form = useServerForm(
    () => empty(defaultType, defaultKind),
    (d: Draft) => mutation.mutateAsync(bodyOf(d)),
    {
      // Only what the browser can know for sure is checked here; the server decides the rest.
      validate: (d) => ({
        first_name: d.first_name.trim() ? undefined : 'first_name should not be empty',
        last_name: d.last_name.trim() ? undefined : 'last_name should not be empty',
        email: d.email.trim() ? undefined : 'email should not be empty',
        user_type: userTypeOf(d) ? undefined : 'user_type must be chosen',
      }),
      errorsOf: (error) => {
        const fields = fieldErrorsOf(error);
        if (fields && Object.keys(fields).length > 0) return fields;
        if (error instanceof ApiError && error.status === 409)
          return { email: error.detailText ?? 'A user with this login already exists' };
        return undefined;
      },
      onSuccess: (created, d) => {
        notifySuccess(`${d.first_name.trim()} ${d.last_name.trim()} was added.`, 'User added');
        close();
        onCreated?.(created.id);
      },
    },
  );
  const { draft, set, err } = form;
  // Opening from another tab starts from that tab's kind (only when the tab changes).
  useEffect(() => {
    if (defaultKind) form.setDraft((d) => ({ ...d, kind: defaultKind.slug }));
  }, [defaultKind]);

  const close = () => {
    form.reset(empty(defaultType, defaultKind));
    mutation.reset();
    onClose();
  };

  const userType = userTypeOf(draft);
  const needsCustomer = needsCustomerFor(userType);
  const formError =
    form.failure == null
      ? null
      : form.failure instanceof ApiError
        ? (form.failure.detailText ?? `The user could not be added (error ${form.failure.status}).`)
        : 'The user could not be added.';

  return (
    <Modal opened={opened} onClose={close} title="Add user" size="lg" centered>
      <form onSubmit={form.onSubmit} noValidate>
        <Stack gap="sm">
          {formError && (
            <Alert color="red" role="alert" title="Not added">
              {formError}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="First name"
              withAsterisk
              data-autofocus
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
          <TextInput
            label="E-mail"
            type="email"
            withAsterisk
            value={draft.email}
            onChange={(e) => set('email', e.currentTarget.value)}
            error={err('email') ?? err('login')}
          />
          {partnerMode ? (
            <Select
              label="Type"
              withAsterisk
              data={kinds.map((k) => ({ value: k.slug, label: k.singular }))}
              value={draft.kind}
              allowDeselect={false}
              onChange={(value) => set('kind', value)}
              error={err('user_type') ?? err('customer_type')}
            />
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label="Type"
                withAsterisk
                data={USER_TYPE_OPTIONS}
                value={draft.user_type}
                allowDeselect={false}
                onChange={(value) => set('user_type', value)}
                error={err('user_type')}
              />
              {draft.user_type === 'partner' && (
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
          {needsCustomer && (
            <CustomerSelect
              required
              value={draft.customer_id}
              onChange={(value) => set('customer_id', value)}
              error={err('customer_id')}
            />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Timezone"
              placeholder="Europe/London"
              value={draft.timezone}
              onChange={(e) => set('timezone', e.currentTarget.value)}
              error={err('timezone')}
            />
            <PasswordInput
              label="Password"
              description="Optional; at least 8 characters"
              value={draft.password}
              onChange={(e) => set('password', e.currentTarget.value)}
              error={err('password')}
            />
          </SimpleGrid>
          <Textarea
            label="Notes"
            autosize
            minRows={2}
            value={draft.notes}
            onChange={(e) => set('notes', e.currentTarget.value)}
            error={err('notes')}
          />
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={form.pending}>
              Add user
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
