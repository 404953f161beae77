import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import type { ApiSchema } from '../../../shared/api/types';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { actionErrorText } from '../../../shared/ui/action-error';
import { timezoneOptions } from '../../networks/pages/NetworkEditPage';
import { programmes, type Programme } from '../api';
import { DayInput } from '../../../shared/ui/DayInput';

type ProgrammeEditBody = ApiSchema<'UpdateProgrammeBody'>;

/** Edits a programme's title, kind, dates and time zone (PUT /programmes/{id}); errors stay in the form. */
export function ProgrammeEditModal({ programme, onClose }: { programme: Programme; onClose: () => void }) {
  const zones = useMemo(timezoneOptions, []);
  const save = programmes.useCommand(
    (body: Partial<ProgrammeEditBody>) => programmes.update(programme.id, body),
    { success: 'Programme saved.', silentErrors: true },
  );
  const form = useServerForm(
    {
      title: programme.title,
      kind: programme.kind,
      start_date: programme.start_date,
      end_date: programme.end_date ?? '',
      timezone: programme.timezone,
    },
    (d) =>
      save.mutateAsync({
        title: d.title.trim(),
        kind: d.kind,
        start_date: d.start_date,
        end_date: d.end_date || null,
        timezone: d.timezone,
      }),
    {
      validate: (d) => ({
        title: d.title.trim() ? undefined : 'Title is required',
        start_date: d.start_date ? undefined : 'Start date is required',
        end_date: d.end_date && d.end_date < d.start_date ? 'End date is before the start' : undefined,
      }),
      onSuccess: onClose,
    },
  );
  const { draft, set, err } = form;
  return (
    <Modal opened onClose={onClose} title="Edit programme" centered>
      <form onSubmit={form.onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Title"
            required
            data-autofocus
            maxLength={200}
            value={draft.title}
            onChange={(e) => set('title', e.currentTarget.value)}
            error={err('title')}
          />
          <Select
            label="Kind"
            allowDeselect={false}
            data={[
              { value: 'lesson', label: 'Lessons' },
              { value: 'mentoring-session', label: 'Mentoring sessions' },
            ]}
            value={draft.kind}
            onChange={(v) => set('kind', v ?? 'lesson')}
            error={err('kind')}
          />
          <Group grow>
            <DayInput
              label="Start date"
              required
              value={draft.start_date}
              onChange={(value) => set('start_date', value)}
              error={err('start_date')}
            />
            <DayInput
              label="End date"
              value={draft.end_date}
              onChange={(value) => set('end_date', value)}
              error={err('end_date')}
            />
          </Group>
          <Select
            label="Time zone"
            searchable
            allowDeselect={false}
            data={zones}
            value={draft.timezone}
            onChange={(v) => set('timezone', v ?? draft.timezone)}
            error={err('timezone')}
            limit={200}
          />
          {form.failure != null && (
            <Alert color="red" role="alert" title="Programme not saved">
              {actionErrorText(form.failure)}
            </Alert>
          )}
          <Group justify="flex-end">
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
