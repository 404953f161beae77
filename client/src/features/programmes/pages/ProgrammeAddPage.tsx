import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Select,
  Skeleton,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { actionErrorText } from '../../../shared/ui/action-error';
import { timezoneOptions } from '../../networks/pages/NetworkEditPage';
import { programmes, useCustomerOptions, type Programme } from '../api';
import { DayInput } from '../../../shared/ui/DayInput';

/** `programmes/add`: a new draft programme, or (`?sourceProgramId=`) a copy of one. */
export function ProgrammeAddPage() {
  const [params] = useSearchParams();
  const sourceId = params.get('sourceProgramId');
  const source = programmes.useOne(sourceId, { silentErrors: true });
  if (sourceId && source.isPending)
    return <Skeleton height={240} aria-label="Loading the programme to copy" />;
  if (sourceId && source.isError)
    return (
      <Alert color="gray" title="The programme to copy was not found">
        <Anchor component={Link} to="/programmes">
          Back to programmes
        </Anchor>
      </Alert>
    );
  return <ProgrammeForm source={sourceId ? (source.data ?? null) : null} />;
}

function ProgrammeForm({ source }: { source: Programme | null }) {
  const navigate = useNavigate();
  const zones = useMemo(timezoneOptions, []);
  const customers = useCustomerOptions();
  const create = programmes.useCommand(programmes.create, {
    success: 'Programme created.',
    silentErrors: true,
  });
  const form = useServerForm(
    {
      title: source ? `${source.title} (copy)` : '',
      customer_id: source?.customer_id ?? '',
      kind: source?.kind ?? 'lesson',
      start_date: source?.start_date ?? '',
      end_date: source?.end_date ?? '',
      timezone: source?.timezone ?? '',
    },
    (d) =>
      create.mutateAsync({
        title: d.title.trim(),
        customer_id: d.customer_id || undefined,
        kind: d.kind,
        start_date: d.start_date || undefined,
        end_date: d.end_date || null,
        timezone: d.timezone || undefined,
        ...(source ? { source_program_id: source.id } : {}),
      }),
    {
      validate: (d) => ({
        title: d.title.trim() ? undefined : 'Title is required',
        customer_id: d.customer_id ? undefined : 'Choose the school',
        start_date: d.start_date ? undefined : 'Start date is required',
        end_date:
          d.end_date && d.start_date && d.end_date < d.start_date
            ? 'End date is before the start'
            : undefined,
      }),
      onSuccess: (result) => void navigate(`/programmes/details/${result.id}`),
    },
  );
  const { draft, set, err } = form;
  return (
    <Stack gap="lg">
      <title>{`${source ? 'Copy a programme' : 'Add a programme'} · ${PRODUCT_NAME}`}</title>
      <Anchor component={Link} to="/programmes" size="sm">
        ← Programmes
      </Anchor>
      <Title order={1}>{source ? `Copy “${source.title}”` : 'Add a programme'}</Title>
      {source && (
        <Alert color="blue">
          The copy starts as a draft with the same groups and teachers, without students.
        </Alert>
      )}
      <form onSubmit={form.onSubmit} noValidate>
        <Paper withBorder radius="md" p="md" maw={560}>
          <Stack gap="md">
            <TextInput
              label="Title"
              required
              maxLength={200}
              value={draft.title}
              onChange={(e) => set('title', e.currentTarget.value)}
              error={err('title')}
            />
            <Select
              label="School"
              required
              searchable
              disabled={customers.isPending}
              data={(customers.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }))}
              value={draft.customer_id || null}
              onChange={(v) => set('customer_id', v ?? '')}
              error={err('customer_id') ?? (customers.isError ? 'Schools could not be loaded' : undefined)}
              nothingFoundMessage="No school matches"
            />
            <Select
              label="Kind"
              required
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
              description="Leave empty for the school's network's time zone"
              searchable
              clearable
              data={zones}
              value={draft.timezone || null}
              onChange={(v) => set('timezone', v ?? '')}
              error={err('timezone')}
              limit={200}
              nothingFoundMessage="No time zone matches"
            />
            {form.failure != null && (
              <Alert color="red" role="alert" title="Programme not saved">
                {actionErrorText(form.failure)}
              </Alert>
            )}
            <Group justify="flex-end" gap="xs">
              <Button variant="default" component={Link} to="/programmes">
                Cancel
              </Button>
              <Button type="submit" loading={form.pending}>
                {source ? 'Create copy' : 'Create programme'}
              </Button>
            </Group>
          </Stack>
        </Paper>
      </form>
    </Stack>
  );
}
