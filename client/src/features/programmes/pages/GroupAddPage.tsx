import {
  Alert,
  Anchor,
  Button,
  Group,
  MultiSelect,
  Paper,
  Select,
  Skeleton,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { actionErrorText } from '../../../shared/ui/action-error';
import { groups, programmes, usePickableUsers, type GroupTeacherInput } from '../api';

/** `programmes/:id/groups/add`: a new group of the programme, with its lead and assistant teachers. */
export function GroupAddPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const programme = programmes.useOne(id, { silentErrors: true });
  const teachers = usePickableUsers('teachers');
  const create = groups.useCommand(groups.create, { success: 'Group created.', silentErrors: true });
  const form = useServerForm(
    { name: '', lead: '', assistants: [] as string[] },
    (d) => {
      const list: GroupTeacherInput[] = [
        ...(d.lead ? [{ teacher_id: d.lead, role: 'lead' as const }] : []),
        ...d.assistants
          .filter((t) => t !== d.lead)
          .map((t) => ({ teacher_id: t, role: 'assistant' as const })),
      ];
      return create.mutateAsync({ programme_id: id, name: d.name.trim(), teachers: list });
    },
    {
      validate: (d) => ({ name: d.name.trim() ? undefined : 'Name is required' }),
      onSuccess: (result) => void navigate(`/groups/${result.id}`),
    },
  );
  const { draft, set, err } = form;
  if (programme.isPending) return <Skeleton height={200} aria-label="Loading the programme" />;
  if (programme.isError)
    return (
      <Alert color="gray" title="Programme not found">
        <Anchor component={Link} to="/programmes">
          Back to programmes
        </Anchor>
      </Alert>
    );
  const options = (teachers.data?.items ?? []).map((t) => ({ value: t.id, label: t.full_name }));
  return (
    <Stack gap="lg">
      <title>{`Add a group · ${PRODUCT_NAME}`}</title>
      <Anchor component={Link} to={`/programmes/details/${id}`} size="sm">
        ← {programme.data.title}
      </Anchor>
      <Title order={1}>Add a group</Title>
      <form onSubmit={form.onSubmit} noValidate>
        <Paper withBorder radius="md" p="md" maw={560}>
          <Stack gap="md">
            <TextInput
              label="Group name"
              required
              maxLength={200}
              value={draft.name}
              onChange={(e) => set('name', e.currentTarget.value)}
              error={err('name')}
            />
            <Select
              label="Lead teacher"
              searchable
              clearable
              disabled={teachers.isPending}
              data={options}
              value={draft.lead || null}
              onChange={(v) => set('lead', v ?? '')}
              error={err('teachers') ?? (teachers.isError ? 'Teachers could not be loaded' : undefined)}
              nothingFoundMessage="No teacher matches"
            />
            <MultiSelect
              label="Assistant teachers"
              searchable
              data={options.filter((o) => o.value !== draft.lead)}
              value={draft.assistants}
              onChange={(v) => set('assistants', v)}
            />
            {form.failure != null && (
              <Alert color="red" role="alert" title="Group not saved">
                {actionErrorText(form.failure)}
              </Alert>
            )}
            <Group justify="flex-end" gap="xs">
              <Button variant="default" component={Link} to={`/programmes/details/${id}`}>
                Cancel
              </Button>
              <Button type="submit" loading={form.pending}>
                Create group
              </Button>
            </Group>
          </Stack>
        </Paper>
      </form>
    </Stack>
  );
}
