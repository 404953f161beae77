import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { ApiError } from '../../../shared/api/client';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { KEY_STAGE_LABELS, referenceErrorsOf, type KeyStage } from '../api';

const STAGES = Object.entries(KEY_STAGE_LABELS).map(([value, label]) => ({ value, label }));

interface Draft {
  name: string;
  key_stage: KeyStage | null;
}

/** Add or rename a subject, or a year group with its key stage (`withKeyStage`). */
export function NamedItemModal({
  opened,
  title,
  initial,
  withKeyStage = false,
  onClose,
  onSave,
}: {
  opened: boolean;
  title: string;
  initial?: Draft;
  withKeyStage?: boolean;
  onClose: () => void;
  onSave: (draft: { name: string; key_stage: KeyStage }) => Promise<unknown>;
}) {
  const start = (): Draft => initial ?? { name: '', key_stage: null };
  const form = useServerForm<Draft>(start, (d) => onSave({ name: d.name.trim(), key_stage: d.key_stage! }), {
    validate: (d) => ({
      name: d.name.trim() ? undefined : 'Name is required',
      key_stage: withKeyStage && !d.key_stage ? 'Choose a key stage' : undefined,
    }),
    errorsOf: referenceErrorsOf,
    onSuccess: () => onClose(),
  });
  const { draft, set, err } = form;
  useEffect(() => {
    if (opened) form.reset(start());
  }, [opened, initial?.name, initial?.key_stage]);
  const failure =
    form.failure instanceof ApiError
      ? (form.failure.detailText ?? `Not saved (error ${form.failure.status}).`)
      : form.failure
        ? 'Not saved.'
        : null;
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
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
          {withKeyStage && (
            <Select
              label="Key stage"
              withAsterisk
              data={STAGES}
              value={draft.key_stage}
              allowDeselect={false}
              onChange={(value) => set('key_stage', value as KeyStage | null)}
              error={err('key_stage')}
            />
          )}
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={form.pending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
