import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { fieldMessage } from '../../../shared/forms/field-message';
import { notifySuccess } from '../../../shared/notify';
import { userCommands, useUserMutation, type Contact, type ContactInput, type UserView } from '../api';
import { fieldErrorsOf } from '../../../shared/api/field-errors';
import { actionErrorText } from '../../../shared/ui/action-error';
import { ConfirmDialog } from '../../../shared/ui/ConfirmDialog';

const EMPTY: ContactInput = { name: '', email: null, phone: null, relationship: null, notes: null };
const FIELDS: { key: keyof ContactInput; label: string; required?: boolean }[] = [
  { key: 'name', label: 'Name', required: true },
  { key: 'relationship', label: 'Relationship' },
  { key: 'email', label: 'E-mail' },
  { key: 'phone', label: 'Phone' },
];

/** A user's contacts: add, edit, remove (POST/PUT/DELETE /api/v1/users/{id}/contacts). */
export function ContactsCard({ user, canEdit }: { user: UserView; canEdit: boolean }) {
  const [editing, setEditing] = useState<{ id: string | null; draft: ContactInput } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [removing, setRemoving] = useState<Contact | null>(null);

  const save = useUserMutation(
    ({ id, draft }: { id: string | null; draft: ContactInput }) =>
      id === null ? userCommands.addContact(user.id, draft) : userCommands.updateContact(user.id, id, draft),
    { silentErrors: true },
  );
  const remove = useUserMutation((contactId: string) => userCommands.removeContact(user.id, contactId), {
    silentErrors: true,
  });

  const openEditor = (contact: Contact | null) => {
    save.reset();
    setErrors({});
    setEditing({
      id: contact?.id ?? null,
      draft: contact
        ? {
            name: contact.name,
            email: contact.email,
            phone: contact.phone,
            relationship: contact.relationship,
            notes: contact.notes,
          }
        : EMPTY,
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    if (!editing.draft.name.trim()) {
      setErrors({ name: 'name should not be empty' });
      return;
    }
    const clean = (v: string | null) => (v && v.trim() ? v.trim() : null);
    const draft: ContactInput = {
      name: editing.draft.name.trim(),
      email: clean(editing.draft.email),
      phone: clean(editing.draft.phone),
      relationship: clean(editing.draft.relationship),
      notes: clean(editing.draft.notes),
    };
    save.mutate(
      { id: editing.id, draft },
      {
        onSuccess: () => {
          notifySuccess(editing.id === null ? 'Contact added.' : 'Contact saved.');
          setEditing(null);
        },
        onError: (error) => setErrors(fieldErrorsOf(error) ?? {}),
      },
    );
  };

  const setField = (key: keyof ContactInput, value: string) => {
    setEditing((e) => (e ? { ...e, draft: { ...e.draft, [key]: value } } : e));
    setErrors(({ [key]: _cleared, ...rest }) => rest);
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h4">
          Contacts
        </Title>
        {canEdit && (
          <Button size="xs" variant="light" onClick={() => openEditor(null)}>
            Add contact
          </Button>
        )}
      </Group>
      {user.contacts.length === 0 ? (
        <Text size="sm" c="dimmed">
          No contacts yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing="xs" aria-label="Contacts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Relationship</Table.Th>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Phone</Table.Th>
                {canEdit && <Table.Th w={90}>Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {user.contacts.map((contact) => (
                <Table.Tr key={contact.id}>
                  <Table.Td fw={500}>{contact.name}</Table.Td>
                  <Table.Td>{contact.relationship ?? '—'}</Table.Td>
                  <Table.Td>{contact.email ?? '—'}</Table.Td>
                  <Table.Td>{contact.phone ?? '—'}</Table.Td>
                  {canEdit && (
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label="Edit">
                          <ActionIcon
                            variant="subtle"
                            aria-label={`Edit contact ${contact.name}`}
                            onClick={() => openEditor(contact)}
                          >
                            ✎
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Remove">
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Remove contact ${contact.name}`}
                            onClick={() => {
                              remove.reset();
                              setRemoving(contact);
                            }}
                          >
                            ✕
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.id ? 'Edit contact' : 'Add contact'}
        centered
      >
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            {save.error != null && !fieldErrorsOf(save.error) && (
              <Alert color="red" role="alert">
                {actionErrorText(save.error)}
              </Alert>
            )}
            {FIELDS.map((field, index) => (
              <TextInput
                key={field.key}
                label={field.label}
                withAsterisk={field.required}
                data-autofocus={index === 0 ? true : undefined}
                value={editing?.draft[field.key] ?? ''}
                onChange={(e) => setField(field.key, e.currentTarget.value)}
                error={fieldMessage(errors[field.key])}
              />
            ))}
            <Textarea
              label="Notes"
              autosize
              minRows={2}
              value={editing?.draft.notes ?? ''}
              onChange={(e) => setField('notes', e.currentTarget.value)}
              error={fieldMessage(errors.notes)}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(null)}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending}>
                {editing?.id ? 'Save contact' : 'Add contact'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>

      <ConfirmDialog
        opened={removing !== null}
        title="Remove contact"
        message={`Remove ${removing?.name ?? 'this contact'} from ${user.full_name}'s contacts?`}
        confirmLabel="Remove contact"
        danger
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => {
              notifySuccess('Contact removed.');
              setRemoving(null);
            },
          })
        }
        onClose={() => setRemoving(null)}
      />
    </Paper>
  );
}
