import { Alert, Button, Group, Modal, MultiSelect, SegmentedControl, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';
import { internalMay } from '../../../app/access';
import { usePermissions, useSession } from '../../../shared/session';
import { actionErrorText } from '../../../shared/ui/action-error';
import { INTERNAL_PERMISSIONS } from '@portal/projections/permissions';
import { useTeacherOptions } from '../../lessons/api';
import { useRequestCover } from '../api';

interface LessonLike {
  id: string;
  teacher_id: string;
  status: string;
  starts_at: string;
}

/**
 * "Request cover" on a lesson's page (decision 0054): for the lesson's own teacher or a lesson editor,
 * while the lesson is planned and has not started. Broadcast to every eligible teacher, or target some.
 */
export function RequestCoverButton({ lesson }: { lesson: LessonLike }) {
  const me = useSession((s) => s.user?.id);
  const editor = internalMay(usePermissions(), INTERNAL_PERMISSIONS.LESSON_EDITS);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [mode, setMode] = useState<'broadcast' | 'targeted'>('broadcast');
  const [teacherIds, setTeacherIds] = useState<string[]>([]);
  const teachers = useTeacherOptions(open && mode === 'targeted');
  const request = useRequestCover();
  const future = new Date(lesson.starts_at).getTime() > Date.now();
  if (lesson.status !== 'planned' || !future || (lesson.teacher_id !== me && !editor)) return null;
  const close = () => {
    setOpen(false);
    request.reset();
  };
  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>
        Request cover
      </Button>
      <Modal opened={open} onClose={close} title="Request cover">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            request.mutate(
              {
                lesson_ids: [lesson.id],
                reason,
                mode,
                ...(mode === 'targeted' ? { teacher_ids: teacherIds } : {}),
              },
              { onSuccess: close },
            );
          }}
        >
          <Stack gap="sm">
            <Textarea
              label="Reason"
              required
              autosize
              minRows={2}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              data-autofocus
            />
            <SegmentedControl
              aria-label="Who is asked"
              value={mode}
              onChange={(v) => setMode(v)}
              data={[
                { value: 'broadcast', label: 'Every eligible teacher' },
                { value: 'targeted', label: 'Chosen teachers' },
              ]}
            />
            {mode === 'targeted' && (
              <MultiSelect
                label="Teachers"
                searchable
                data={(teachers.data ?? []).filter((t) => t.value !== lesson.teacher_id)}
                value={teacherIds}
                onChange={setTeacherIds}
              />
            )}
            {request.error && (
              <Alert color="red" role="alert">
                {actionErrorText(request.error)}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Close
              </Button>
              <Button type="submit" loading={request.isPending} disabled={!reason.trim()}>
                Request cover
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
