import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  FileInput,
  Group,
  Paper,
  Progress,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { formatInZone, viewerTimezone } from '../../../shared/dates';
import { notifyError, notifySuccess } from '../../../shared/notify';
import { useSession } from '../../../shared/session';
import { useUserMutation, type UserView } from '../api';
import {
  deleteStudentFiles,
  openStudentFile,
  uploadStudentFile,
  type StudentFile,
  type StudentFileType,
} from '../profile-api';
import { ALLOWED_FILE_TYPES, formatBytes, uploadProblem } from '../profile-rules';
import { actionErrorText } from '../../../shared/ui/action-error';
import { ConfirmDialog } from '../../../shared/ui/ConfirmDialog';

/**
 * A student's files (spec §3 student_profile.files, §7 "Student files"): the list with the latest EHCP
 * marked, download by a signed link, upload through the storage service's signed form (progress shown),
 * delete. The server decides who may do what; `canUpload` / `canDelete` only hide buttons that would be
 * refused.
 */
export function StudentFilesCard({
  user,
  canUpload,
  canDelete,
}: {
  user: UserView;
  canUpload: boolean;
  canDelete: boolean;
}) {
  const viewer = useSession((state) => state.user);
  const timezone = viewerTimezone(viewer);
  const files = user.student_profile?.files ?? [];
  const latestEhcp = user.student_profile?.latest_ehcp_file ?? null;

  const [file, setFile] = useState<File | null>(null);
  const [fileType, setFileType] = useState<StudentFileType>('EHCP');
  const [progress, setProgress] = useState<number | null>(null);
  const [chooseError, setChooseError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const upload = useUserMutation(
    ({ f, t }: { f: File; t: StudentFileType }) => uploadStudentFile(user.id, f, t, setProgress),
    { silentErrors: true },
  );
  const remove = useUserMutation((ids: string[]) => deleteStudentFiles(user.id, ids), { silentErrors: true });

  const choose = (next: File | null) => {
    upload.reset();
    setProgress(null);
    setFile(next);
    setChooseError(next ? uploadProblem(next) : null);
  };

  const startUpload = () => {
    if (!file || chooseError) return;
    setProgress(0);
    upload.mutate(
      { f: file, t: fileType },
      {
        onSuccess: () => {
          notifySuccess(`${file.name} uploaded.`);
          setFile(null);
          setProgress(null);
        },
        onError: () => setProgress(null),
      },
    );
  };

  const download = (f: StudentFile) => {
    openStudentFile(user.id, f).catch((error: unknown) => notifyError(error, 'The file could not be opened'));
  };

  const toggle = (id: string, on: boolean) =>
    setSelected((current) => (on ? [...current, id] : current.filter((x) => x !== id)));

  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h4">
          Files
        </Title>
        <Text size="sm" c="dimmed">
          Latest EHCP:{' '}
          {latestEhcp ? (
            <Anchor component="button" type="button" size="sm" onClick={() => download(latestEhcp)}>
              {latestEhcp.file_name} ({formatInZone(latestEhcp.uploaded_at, timezone, 'dd.MM.yyyy')})
            </Anchor>
          ) : (
            'none on record'
          )}
        </Text>
      </Group>

      {files.length === 0 ? (
        <Text size="sm" c="dimmed">
          No files yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs" aria-label="Student files">
            <Table.Thead>
              <Table.Tr>
                {canDelete && (
                  <Table.Th w={40}>
                    <VisuallyHidden>Select</VisuallyHidden>
                  </Table.Th>
                )}
                <Table.Th>Name</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Size</Table.Th>
                <Table.Th>Uploaded</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {files.map((f) => (
                <Table.Tr key={f.id}>
                  {canDelete && (
                    <Table.Td>
                      <Checkbox
                        aria-label={`Select ${f.file_name}`}
                        checked={selected.includes(f.id)}
                        onChange={(event) => toggle(f.id, event.currentTarget.checked)}
                      />
                    </Table.Td>
                  )}
                  <Table.Td>
                    <Anchor component="button" type="button" size="sm" onClick={() => download(f)}>
                      {f.file_name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant={f.file_type === 'EHCP' ? 'filled' : 'light'} color="gray" radius="sm">
                      {f.file_type === 'EHCP' ? 'EHCP' : 'Other'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{formatBytes(f.size)}</Table.Td>
                  <Table.Td>{formatInZone(f.uploaded_at, timezone)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      {canDelete && selected.length > 0 && (
        <Group mt="xs">
          <Button size="xs" color="red" variant="light" onClick={() => setConfirmDelete(true)}>
            Delete {selected.length === 1 ? 'file' : `${selected.length} files`}
          </Button>
        </Group>
      )}

      {canUpload && (
        <Stack gap="xs" mt="md">
          <Group align="flex-end" gap="sm">
            <FileInput
              label="Upload a file"
              placeholder="Choose a file (PDF, Word, image; up to 100 MB)"
              value={file}
              onChange={choose}
              accept={ALLOWED_FILE_TYPES.join(',')}
              clearable
              error={chooseError}
              style={{ flex: 1, minWidth: 240 }}
            />
            <SegmentedControl
              aria-label="File type"
              value={fileType}
              onChange={(v) => setFileType(v)}
              data={[
                { value: 'EHCP', label: 'EHCP' },
                { value: 'OTHER', label: 'Other' },
              ]}
            />
            <Button onClick={startUpload} disabled={!file || !!chooseError} loading={upload.isPending}>
              Upload
            </Button>
          </Group>
          {progress !== null && (
            <Progress value={progress} size="sm" aria-label={`Upload progress ${progress}%`} animated />
          )}
          {upload.isError && (
            <Alert color="red" role="alert" title="The file was not uploaded">
              {actionErrorText(upload.error)}
            </Alert>
          )}
        </Stack>
      )}

      <ConfirmDialog
        opened={confirmDelete}
        title="Delete files"
        message={`Delete ${selected.length === 1 ? 'this file' : `these ${selected.length} files`} for ${user.full_name}? The files are removed from storage; the audit history keeps the record that they existed.`}
        confirmLabel="Delete"
        danger
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() =>
          remove.mutate(selected, {
            onSuccess: () => {
              notifySuccess('Files deleted.');
              setSelected([]);
              setConfirmDelete(false);
            },
          })
        }
        onClose={() => {
          remove.reset();
          setConfirmDelete(false);
        }}
      />
    </Paper>
  );
}
