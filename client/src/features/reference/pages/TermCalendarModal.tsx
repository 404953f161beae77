import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Modal,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect } from 'react';
import { ApiError } from '../../../shared/api/client';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { CustomerSelect } from '../../users/components/CustomerSelect';
import { referenceErrorsOf, type TermCalendar, type TermCalendarInput } from '../api';
import { DayInput } from '../../../shared/ui/DayInput';

interface Draft {
  name: string;
  network_id: string | null;
  customer_id: string | null;
  terms: { name: string; first_day: string; last_day: string }[];
  closures: { date: string; reason: string }[];
}

const draftOf = (c?: TermCalendar): Draft =>
  c
    ? {
        name: c.name,
        network_id: c.network_id,
        customer_id: c.customer_id,
        terms: c.terms.map((t) => ({ ...t })),
        closures: c.closures.map((d) => ({ ...d })),
      }
    : {
        name: '',
        network_id: null,
        customer_id: null,
        terms: [{ name: 'Autumn', first_day: '', last_day: '' }],
        closures: [],
      };

/**
 * Add or edit a term calendar: its terms and closure days (the server checks that terms do not
 * overlap and closure dates are unique, and names the row at fault: `terms.1.last_day`).
 */
export function TermCalendarModal({
  opened,
  calendar,
  networkOptions,
  onClose,
  onSave,
}: {
  opened: boolean;
  calendar?: TermCalendar;
  networkOptions: { value: string; label: string }[];
  onClose: () => void;
  onSave: (input: TermCalendarInput) => Promise<unknown>;
}) {
  const form = useServerForm<Draft>(
    () => draftOf(calendar),
    (d) =>
      onSave({
        network_id: d.network_id!,
        customer_id: d.customer_id,
        ...(d.name.trim() ? { name: d.name.trim() } : {}),
        terms: d.terms.map((t) => ({ ...t, name: t.name.trim() })),
        closures: d.closures.map((c) => ({ ...c, reason: c.reason.trim() })),
      }),
    {
      validate: (d) => ({ network_id: d.network_id ? undefined : 'Choose a network' }),
      errorsOf: referenceErrorsOf,
      onSuccess: () => onClose(),
    },
  );
  const { draft, err } = form;
  useEffect(() => {
    if (opened) form.reset(draftOf(calendar));
  }, [opened, calendar]);

  const setTerm = (i: number, field: keyof Draft['terms'][number], value: string) => {
    form.setDraft((d) => ({ ...d, terms: d.terms.map((t, k) => (k === i ? { ...t, [field]: value } : t)) }));
    form.clearError(`terms.${i}.${field}`);
  };
  const setClosure = (i: number, field: keyof Draft['closures'][number], value: string) => {
    form.setDraft((d) => ({
      ...d,
      closures: d.closures.map((c, k) => (k === i ? { ...c, [field]: value } : c)),
    }));
    form.clearError(`closures.${i}.${field}`);
  };
  const failure =
    form.failure instanceof ApiError
      ? (form.failure.detailText ?? `Not saved (error ${form.failure.status}).`)
      : form.failure
        ? 'Not saved.'
        : null;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={calendar ? `Edit ${calendar.name}` : 'Add a term calendar'}
      size="lg"
      centered
    >
      <form onSubmit={form.onSubmit} noValidate>
        <Stack gap="sm">
          {failure && (
            <Alert color="red" role="alert" title="Not saved">
              {failure}
            </Alert>
          )}
          <TextInput
            label="Name"
            description="Left empty, the academic year of the first term (e.g. 2026/27)"
            data-autofocus
            value={draft.name}
            onChange={(e) => form.set('name', e.currentTarget.value)}
            error={err('name')}
          />
          {!calendar && (
            <Group grow align="flex-start">
              <Select
                label="Network"
                withAsterisk
                data={networkOptions}
                value={draft.network_id}
                onChange={(value) => form.set('network_id', value)}
                error={err('network_id')}
              />
              <CustomerSelect
                value={draft.customer_id}
                onChange={(value) => form.set('customer_id', value)}
                error={err('customer_id')}
              />
            </Group>
          )}
          <Title order={3} fz="h5">
            Terms
          </Title>
          {draft.terms.length === 0 && (
            <Text size="sm" c="dimmed">
              No terms: every day outside the closures is a teaching day.
            </Text>
          )}
          {draft.terms.map((t, i) => (
            <Group key={i} align="flex-start" wrap="nowrap">
              <TextInput
                label="Term"
                value={t.name}
                onChange={(e) => setTerm(i, 'name', e.currentTarget.value)}
                error={err(`terms.${i}.name`)}
              />
              <DayInput
                label="First day"
                value={t.first_day}
                onChange={(value) => setTerm(i, 'first_day', value)}
                error={err(`terms.${i}.first_day`)}
              />
              <DayInput
                label="Last day"
                value={t.last_day}
                onChange={(value) => setTerm(i, 'last_day', value)}
                error={err(`terms.${i}.last_day`)}
              />
              <ActionIcon
                mt={28}
                variant="subtle"
                color="red"
                aria-label={`Remove term ${t.name || i + 1}`}
                onClick={() => form.setDraft((d) => ({ ...d, terms: d.terms.filter((_, k) => k !== i) }))}
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button
              variant="light"
              size="xs"
              onClick={() =>
                form.setDraft((d) => ({
                  ...d,
                  terms: [...d.terms, { name: '', first_day: '', last_day: '' }],
                }))
              }
            >
              Add term
            </Button>
          </Group>
          <Title order={3} fz="h5">
            Closure days
          </Title>
          {draft.closures.length === 0 && (
            <Text size="sm" c="dimmed">
              No closure days.
            </Text>
          )}
          {draft.closures.map((c, i) => (
            <Group key={i} align="flex-start" wrap="nowrap">
              <DayInput
                label="Date"
                value={c.date}
                onChange={(value) => setClosure(i, 'date', value)}
                error={err(`closures.${i}.date`)}
              />
              <TextInput
                label="Reason"
                style={{ flex: 1 }}
                value={c.reason}
                onChange={(e) => setClosure(i, 'reason', e.currentTarget.value)}
                error={err(`closures.${i}.reason`)}
              />
              <ActionIcon
                mt={28}
                variant="subtle"
                color="red"
                aria-label={`Remove closure ${c.date || i + 1}`}
                onClick={() =>
                  form.setDraft((d) => ({ ...d, closures: d.closures.filter((_, k) => k !== i) }))
                }
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button
              variant="light"
              size="xs"
              onClick={() =>
                form.setDraft((d) => ({ ...d, closures: [...d.closures, { date: '', reason: '' }] }))
              }
            >
              Add closure day
            </Button>
          </Group>
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
