import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type DragEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { ImportProgress } from '@portal/projections/live-contract';
import { onImportProgress } from '../../../shared/live/live-connection';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { Icon } from '../../../shared/ui/icons';
import { generatePasswords, importUsers, userKeys, type ImportAnswer, type ListType } from '../api';
import {
  fileProblem,
  importColumnsFor,
  newImportId,
  progressPercent,
  rowErrorsOf,
  templateCsv,
} from '../user-import';
import { saveFile } from '../../../shared/api/download';
import { datedFilename, viewerTimezone } from '../../../shared/dates';
import { useSession } from '../../../shared/session';
import { actionErrorText } from '../../../shared/ui/action-error';

const LIST_TYPES: ListType[] = ['students', 'teachers', 'partners', 'admins'];
const TITLES: Record<ListType, string> = {
  students: 'students',
  teachers: 'teachers',
  partners: 'partner users',
  admins: 'administrators',
};
const LIST_TITLES: Record<ListType, string> = {
  students: 'Students',
  teachers: 'Teachers',
  partners: 'Partner users',
  admins: 'Administrators',
};

interface Outcome {
  answer: ImportAnswer;
  /** The passwords file was handed to the browser (or why not). */
  passwords: 'none' | 'downloaded' | { error: unknown };
}

/** users/import/:type: upload a CSV of users of one type, with live progress and per-row errors. */
export function ImportUsersPage() {
  const { type = '' } = useParams();
  if (!(LIST_TYPES as string[]).includes(type))
    return (
      <Alert color="red" role="alert" title="Unknown user type">
        Users can be imported as students, teachers, partners or admins.{' '}
        <Anchor component={Link} to="/users">
          All users
        </Anchor>
      </Alert>
    );
  return <ImportForm key={type} type={type as ListType} />;
}

function ImportForm({ type }: { type: ListType }) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [skipDuplicates, setSkipDuplicates] = useState(false);
  const [withPasswords, setWithPasswords] = useState(false);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const timezone = viewerTimezone(useSession((s) => s.user));
  const importId = useRef<string | null>(null);
  const columns = importColumnsFor(type);
  const template = useMemo(
    () => `data:text/csv;charset=utf-8,${encodeURIComponent(templateCsv(type))}`,
    [type],
  );

  useEffect(
    () =>
      onImportProgress((p) => {
        if (p.importId === importId.current) setProgress(p);
      }),
    [],
  );

  const run = useMutation({
    meta: { silentErrors: true },
    mutationFn: async (chosen: File): Promise<Outcome> => {
      const answer = await importUsers(chosen, { skipDuplicates, importId: importId.current! });
      if (!withPasswords || answer.user_ids.length === 0) return { answer, passwords: 'none' };
      try {
        const csv = await generatePasswords(answer.user_ids);
        saveFile(csv, datedFilename(`passwords-${type}.csv`, timezone));
        return { answer, passwords: 'downloaded' };
      } catch (error) {
        return { answer, passwords: { error } };
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });

  const choose = (chosen: File | undefined) => {
    run.reset();
    setProgress(null);
    if (!chosen) return;
    const problem = fileProblem(chosen);
    setFileError(problem);
    setFile(problem ? null : chosen);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (run.isPending) return;
    choose(event.dataTransfer.files[0]);
  };

  const start = () => {
    if (!file) {
      setFileError('Choose a CSV file first.');
      return;
    }
    importId.current = newImportId();
    setProgress(null);
    run.mutate(file);
  };

  const startOver = () => {
    run.reset();
    setFile(null);
    setProgress(null);
    if (inputRef.current) inputRef.current.value = '';
  };

  const rowErrors = run.error ? rowErrorsOf(run.error) : null;
  const listPath = `/users/${type}`;

  return (
    <Stack gap="md">
      <title>{`Import ${TITLES[type]} · ${PRODUCT_NAME}`}</title>
      <Anchor component={Link} to={listPath} size="sm">
        <Group gap={4}>
          <Icon name="arrowLeft" size={14} /> {LIST_TITLES[type]}
        </Group>
      </Anchor>
      <div>
        <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.6}>
          Users
        </Text>
        <Title order={1} fz="h2">
          Import {TITLES[type]}
        </Title>
      </div>

      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Title order={2} fz="h4">
              Upload a CSV file
            </Title>
            <Paper
              withBorder
              radius="md"
              p="lg"
              bg={dragging ? 'var(--mantine-color-blue-light)' : undefined}
              style={{ borderStyle: 'dashed', textAlign: 'center' }}
              onDragOver={(event) => {
                event.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
            >
              <Stack gap={6} align="center">
                <Text component="label" htmlFor={inputId} size="sm" fw={500}>
                  Drag a CSV file here, or choose one
                </Text>
                <input
                  ref={inputRef}
                  id={inputId}
                  type="file"
                  accept=".csv,text/csv"
                  aria-describedby={`${inputId}-hint`}
                  disabled={run.isPending}
                  onChange={(event) => choose(event.currentTarget.files?.[0])}
                  style={{ maxWidth: '100%' }}
                />
                <Text size="xs" c="dimmed" id={`${inputId}-hint`}>
                  UTF-8, comma separated, a header row; at most 5 MB and 10,000 rows.
                </Text>
                {file && (
                  <Badge variant="light" size="lg" radius="sm" tt="none">
                    {file.name} · {(file.size / 1024).toFixed(1)} KB
                  </Badge>
                )}
              </Stack>
            </Paper>
            {fileError && (
              <Alert color="red" role="alert" title="This file cannot be imported">
                {fileError}
              </Alert>
            )}
            <Checkbox
              label="Skip duplicates"
              description="Rows whose login already exists (or repeats an earlier row) are skipped instead of stopping the import."
              checked={skipDuplicates}
              onChange={(event) => setSkipDuplicates(event.currentTarget.checked)}
              disabled={run.isPending}
            />
            <Checkbox
              label="Create the users with generated passwords"
              description="After the import, a passwords file (login, e-mail, name, password) downloads once. The passwords are not stored in readable form and cannot be shown again: keep the file safe and share each password privately."
              checked={withPasswords}
              onChange={(event) => setWithPasswords(event.currentTarget.checked)}
              disabled={run.isPending}
            />
            <Group>
              <Button onClick={start} loading={run.isPending} disabled={!file || run.isSuccess}>
                Import
              </Button>
              {(run.isSuccess || run.isError) && (
                <Button variant="default" onClick={startOver}>
                  Import another file
                </Button>
              )}
            </Group>

            {run.isPending && (
              <Stack gap={4} aria-live="polite">
                <Text size="sm">
                  {progress
                    ? `Creating users: ${progress.done.toLocaleString('en-GB')} of ${progress.total.toLocaleString('en-GB')} rows`
                    : 'Checking every row…'}
                </Text>
                <Progress
                  value={progressPercent(progress)}
                  animated={!progress}
                  aria-label="Import progress"
                  size="lg"
                />
              </Stack>
            )}

            {run.isSuccess && <Success outcome={run.data} listPath={listPath} type={type} />}

            {run.isError && rowErrors && (
              <Alert color="red" role="alert" title="Nothing was imported">
                The file has {rowErrors.length === 1 ? '1 error' : `${rowErrors.length} errors`}. No user was
                created: fix the rows below and upload the file again.
              </Alert>
            )}
            {run.isError && !rowErrors && (
              <Alert color="red" role="alert" title="Nothing was imported">
                {actionErrorText(run.error)}
              </Alert>
            )}
          </Stack>
        </Paper>

        <Paper withBorder radius="md" p="md">
          <Group justify="space-between" mb="sm">
            <Title order={2} fz="h4">
              Expected columns
            </Title>
            <Anchor href={template} download={`${type}-import-template.csv`} size="sm">
              Download a template CSV
            </Anchor>
          </Group>
          <Table aria-label="Expected columns" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Column</Table.Th>
                <Table.Th>Required</Table.Th>
                <Table.Th>What goes in it</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {columns.map((c) => (
                <Table.Tr key={c.name}>
                  <Table.Td ff="monospace">{c.name}</Table.Td>
                  <Table.Td>{c.required ? 'Yes' : 'No'}</Table.Td>
                  <Table.Td>{c.description}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text size="xs" c="dimmed" mt="sm">
            Column names may be in any order and any case. Every row is checked before anyone is created: if
            any row is wrong, nothing is imported.
          </Text>
        </Paper>
      </SimpleGrid>

      {rowErrors && (
        <Paper withBorder radius="md" p="md">
          <Title order={2} fz="h4" mb="sm">
            Errors in the file
          </Title>
          <Table aria-label="Errors in the file" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Row</Table.Th>
                <Table.Th>Column</Table.Th>
                <Table.Th>Problem</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rowErrors.map((e, i) => (
                <Table.Tr key={`${e.row}-${e.column}-${i}`}>
                  <Table.Td>{e.row}</Table.Td>
                  <Table.Td ff="monospace">{e.column}</Table.Td>
                  <Table.Td>{e.reason}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text size="xs" c="dimmed" mt="sm">
            Row numbers are as a spreadsheet shows them: the header is row 1.
          </Text>
        </Paper>
      )}
    </Stack>
  );
}

function Success({ outcome, listPath, type }: { outcome: Outcome; listPath: string; type: ListType }) {
  const { answer, passwords } = outcome;
  return (
    <Stack gap="xs">
      <Alert color="teal" role="status" title="Import complete">
        {answer.imported === 1 ? '1 user was created' : `${answer.imported} users were created`}
        {answer.skipped > 0 &&
          `; ${answer.skipped === 1 ? '1 row was' : `${answer.skipped} rows were`} skipped as duplicates`}
        .{' '}
        <Anchor component={Link} to={listPath}>
          Back to {LIST_TITLES[type].toLowerCase()}
        </Anchor>
      </Alert>
      {passwords === 'downloaded' && (
        <Alert color="yellow" title="Passwords downloaded once">
          The passwords file has been downloaded. It is the only copy: the portal cannot show these passwords
          again.
        </Alert>
      )}
      {typeof passwords === 'object' && (
        <Alert color="red" role="alert" title="The users were created, but no passwords were generated">
          {actionErrorText(passwords.error)} They can set a password through an activation link, or you can
          set one on each user’s page.
        </Alert>
      )}
    </Stack>
  );
}

export default ImportUsersPage;
