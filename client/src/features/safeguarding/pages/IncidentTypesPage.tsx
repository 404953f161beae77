import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { isAdmin } from '../../../app/access';
import { usePermissions } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { safeguardingApi, type IncidentType } from '../api';
import { StepModal } from '../../../shared/ui/StepModal';
import { useIncidentTypes, useSafeguardingCommand } from '../hooks';

/** Incident types with guidance for reporters (route safeguarding-incident-types). Retiring keeps history. */
export function IncidentTypesPage() {
  const permissions = usePermissions();
  const manage = isAdmin(permissions);
  const [showRetired, setShowRetired] = useState(false);
  const types = useIncidentTypes(showRetired);
  const [editing, setEditing] = useState<IncidentType | 'new' | null>(null);
  const [name, setName] = useState('');
  const [guidance, setGuidance] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useSafeguardingCommand(
    (input: { id?: string; name: string; guidance: string }) =>
      input.id ? safeguardingApi.updateType(input.id, input) : safeguardingApi.createType(input),
    'Incident type saved',
  );
  const retire = useSafeguardingCommand(
    (id: string) => safeguardingApi.retireType(id),
    'Incident type retired',
  );

  const edit = (type: IncidentType | 'new') => {
    setEditing(type);
    setName(type === 'new' ? '' : type.name);
    setGuidance(type === 'new' ? '' : type.guidance);
    setError(null);
  };

  return (
    <Stack gap="lg">
      <title>{`Safeguarding incident types · ${PRODUCT_NAME}`}</title>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Safeguarding incident types</Title>
          <Text c="dimmed" mt={4}>
            The categories reporters choose from, with the guidance they see while reporting.
          </Text>
        </div>
        {manage && <Button onClick={() => edit('new')}>Add a type</Button>}
      </Group>
      <Switch
        label="Show retired types"
        checked={showRetired}
        onChange={(e) => setShowRetired(e.currentTarget.checked)}
      />
      <Card withBorder radius="md" p={0}>
        {types.isError ? (
          <Alert color="red" m="md" title="The types could not be loaded" />
        ) : types.isPending ? (
          <Stack p="md">
            <Skeleton height={30} />
            <Skeleton height={30} />
          </Stack>
        ) : types.data.items.length === 0 ? (
          <Text p="xl" ta="center" c="dimmed">
            No incident types yet.{manage ? ' Add the first one.' : ''}
          </Text>
        ) : (
          <Table verticalSpacing="sm" aria-label="Incident types">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Guidance</Table.Th>
                {manage && <Table.Th aria-label="Actions" />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {types.data.items.map((t) => (
                <Table.Tr key={t.id}>
                  <Table.Td>
                    <Group gap={6}>
                      <Text fw={500} size="sm">
                        {t.name}
                      </Text>
                      {t.retired && <Badge color="gray">Retired</Badge>}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={2} c={t.guidance ? undefined : 'dimmed'}>
                      {t.guidance || 'No guidance'}
                    </Text>
                  </Table.Td>
                  {manage && (
                    <Table.Td>
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        <Button size="xs" variant="default" onClick={() => edit(t)}>
                          Edit
                        </Button>
                        {!t.retired && (
                          <Button size="xs" variant="subtle" color="red" onClick={() => retire.mutate(t.id)}>
                            Retire
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      <StepModal
        title={editing === 'new' ? 'Add an incident type' : 'Edit incident type'}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        submitLabel="Save"
        pending={save.isPending}
        onSubmit={() => {
          if (!name.trim()) return setError('Name is required');
          save.mutate(
            { id: editing !== 'new' && editing ? editing.id : undefined, name: name.trim(), guidance },
            { onSuccess: () => setEditing(null) },
          );
        }}
      >
        <TextInput
          label="Name"
          withAsterisk
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={error}
          data-autofocus
        />
        <Textarea
          label="Guidance for reporters"
          autosize
          minRows={4}
          value={guidance}
          onChange={(e) => setGuidance(e.currentTarget.value)}
        />
      </StepModal>
    </Stack>
  );
}
