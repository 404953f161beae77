import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Code,
  FileInput,
  Group,
  List,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ApiError, apiRequest } from '../../../shared/api/client';
import { usePermissions } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { Icon } from '../../../shared/ui/icons';
import { userKeys } from '../api';
import { addableKinds, kindBySlug, type MyUserKind } from '../my-users';
import { actionErrorText } from '../../../shared/ui/action-error';

interface ImportAnswer {
  imported: number;
  skipped: number;
  import_id: string;
}

interface RowError {
  row: number;
  column: string;
  reason: string;
}

/** The server's 422 `errors` (row, column, reason): every bad row, nothing imported. */
function rowErrorsOf(error: unknown): RowError[] {
  if (!(error instanceof ApiError) || error.status !== 422) return [];
  const body = error.body as { errors?: unknown } | undefined;
  return Array.isArray(body?.errors) ? (body.errors as RowError[]) : [];
}

/** The columns and one example row of the template for a kind. */
function templateOf(kind: MyUserKind): string {
  const header = ['first_name', 'last_name', 'email', 'type', 'customer_type', 'timezone'];
  const example = [
    'Sam',
    'Example',
    'sam.example@school.example',
    kind.userType,
    kind.customerType ?? '',
    'Europe/London',
  ];
  return `${header.join(',')}\n${example.join(',')}\n`;
}

function downloadTemplate(kind: MyUserKind) {
  const url = URL.createObjectURL(new Blob([templateOf(kind)], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${kind.slug}-import.csv`;
  a.click();
  URL.revokeObjectURL(url);
}

/**
 * my-users/import/:type: a partner imports users of their own school from a CSV (POST
 * /api/v1/users/import). The server checks every row first (their ADD_NEW_* permissions included) and
 * imports nothing when any row is wrong; the rows' errors are listed here.
 */
export function MyUsersImportPage() {
  const { type } = useParams();
  const permissions = usePermissions();
  const queryClient = useQueryClient();
  const kind = kindBySlug(type);
  const addable = addableKinds(permissions);
  const [file, setFile] = useState<File | null>(null);
  const [skipDuplicates, setSkipDuplicates] = useState(true);
  const upload = useMutation({
    mutationFn: (csv: File) => {
      const data = new FormData();
      data.append('file', csv, csv.name);
      return apiRequest<ImportAnswer>('/api/v1/users/import', {
        method: 'POST',
        query: { skip_duplicates: skipDuplicates },
        multipart: data,
      });
    },
    meta: { silentErrors: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });

  const back = (
    <Anchor component={Link} to="/my-users" size="sm">
      <Group gap={4}>
        <Icon name="arrowLeft" size={14} /> My users
      </Group>
    </Anchor>
  );

  if (!kind || !addable.includes(kind))
    return (
      <Stack gap="md">
        <title>{`Import my users · ${PRODUCT_NAME}`}</title>
        {back}
        <Title order={1} fz="h2">
          Import users
        </Title>
        <Alert
          color="gray"
          title={kind ? `You cannot add ${kind.label.toLowerCase()}` : 'Unknown kind of user'}
        >
          {kind
            ? `Importing creates users, and your account may not add ${kind.label.toLowerCase()}. Your school's super system administrator can give you the permission.`
            : 'There is no such kind of user to import.'}
          {addable.length > 0 && (
            <Text size="sm" mt="xs">
              You may import:{' '}
              {addable.map((k, i) => (
                <span key={k.slug}>
                  {i > 0 && ', '}
                  <Anchor component={Link} to={`/my-users/import/${k.slug}`}>
                    {k.label.toLowerCase()}
                  </Anchor>
                </span>
              ))}
              .
            </Text>
          )}
        </Alert>
      </Stack>
    );

  const rowErrors = rowErrorsOf(upload.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) upload.mutate(file);
  };

  return (
    <Stack gap="md">
      <title>{`Import ${kind.label.toLowerCase()} · ${PRODUCT_NAME}`}</title>
      {back}
      <div>
        <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.6}>
          My users
        </Text>
        <Title order={1} fz="h2">
          Import {kind.label.toLowerCase()}
        </Title>
      </div>

      <Paper withBorder radius="md" p="md" maw={760}>
        <Stack gap="sm">
          <Text size="sm">
            A CSV file with a header row, one user per row, at most 10,000 rows and 5 MB. The users join your
            school; those without a password get an e-mail to choose one.
          </Text>
          <List size="sm" spacing={4}>
            <List.Item>
              Required: <Code>first_name</Code>, <Code>last_name</Code>, <Code>email</Code>, <Code>type</Code>{' '}
              (<Code>{kind.userType}</Code>)
              {kind.customerType && (
                <>
                  {' '}
                  and <Code>customer_type</Code> (<Code>{kind.customerType}</Code>)
                </>
              )}
              .
            </List.Item>
            <List.Item>
              Optional: <Code>login</Code>, <Code>timezone</Code>, <Code>notes</Code>.
            </List.Item>
            <List.Item>If any row is wrong, nothing is imported and every wrong row is listed.</List.Item>
          </List>
          <Group>
            <Button variant="default" size="xs" onClick={() => downloadTemplate(kind)}>
              Download a template
            </Button>
          </Group>
          <form onSubmit={submit} noValidate>
            <Stack gap="sm">
              <FileInput
                label="CSV file"
                placeholder="Choose a file"
                accept=".csv,text/csv"
                withAsterisk
                clearable
                value={file}
                onChange={(value) => {
                  setFile(value);
                  upload.reset();
                }}
              />
              <Checkbox
                label="Skip rows whose e-mail or login already belongs to a user"
                checked={skipDuplicates}
                onChange={(e) => setSkipDuplicates(e.currentTarget.checked)}
              />
              <Group justify="flex-end">
                <Button type="submit" disabled={!file} loading={upload.isPending}>
                  Import
                </Button>
              </Group>
            </Stack>
          </form>
        </Stack>
      </Paper>

      {upload.isSuccess && (
        <Alert color="green" title="Imported" role="status" maw={760}>
          {upload.data.imported} user(s) imported
          {upload.data.skipped > 0 ? `, ${upload.data.skipped} skipped (already there)` : ''}.{' '}
          <Anchor component={Link} to={`/my-users?tab=${kind.slug}`}>
            See {kind.label.toLowerCase()}
          </Anchor>
        </Alert>
      )}
      {upload.isError && (
        <Alert color="red" title="Nothing was imported" role="alert" maw={760}>
          {rowErrors.length === 0 ? (
            actionErrorText(upload.error)
          ) : (
            <Table withTableBorder striped mt="xs" aria-label="Rows with errors">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Row</Table.Th>
                  <Table.Th>Column</Table.Th>
                  <Table.Th>Problem</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rowErrors.slice(0, 100).map((e) => (
                  <Table.Tr key={`${e.row}-${e.column}`}>
                    <Table.Td>{e.row}</Table.Td>
                    <Table.Td>{e.column}</Table.Td>
                    <Table.Td>{e.reason}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {rowErrors.length > 100 && <Text size="sm">…and {rowErrors.length - 100} more.</Text>}
        </Alert>
      )}
    </Stack>
  );
}

export default MyUsersImportPage;
