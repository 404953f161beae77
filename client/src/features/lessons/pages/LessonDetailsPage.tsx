import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { internalMay } from '../../../app/access';
import { ApiError } from '../../../shared/api/client';
import { DATE_TIME_FORMAT, formatInZone, viewerTimezone } from '../../../shared/dates';
import { usePermissions, useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { actionErrorText } from '../../../shared/ui/action-error';
import { INTERNAL_PERMISSIONS } from '@portal/projections/permissions';
import {
  lessons,
  useCancelLesson,
  useCoverTeacher,
  useLessonNotes,
  useRescheduleLesson,
  useTeacherOptions,
  type CancelInput,
  type Lesson,
} from '../api';
import { statusColor, statusLabel } from './LessonsPage';
import { RequestCoverButton } from '../../cover/components/RequestCoverButton';
import { JoinLessonButton } from '../../cover/components/JoinLessonButton';
import { RegisterPanel, mayReadRegister } from '../../attendance/components/RegisterPanel';
import { DayInput } from '../../../shared/ui/DayInput';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.4}>
        {label}
      </Text>
      <div>{children}</div>
    </div>
  );
}

function ErrorLine({ error }: { error: Error | null }) {
  return error ? (
    <Alert color="red" role="alert">
      {actionErrorText(error)}
    </Alert>
  ) : null;
}

function CancelModal({ lesson, onClose }: { lesson: Lesson; onClose: () => void }) {
  const cancel = useCancelLesson(lesson.id);
  const [draft, setDraft] = useState<CancelInput>({
    reason: '',
    cancelled_by: 'provider',
    charge_customer: false,
    pay_teacher: false,
  });
  return (
    <Modal opened onClose={onClose} title="Cancel the lesson">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          cancel.mutate(draft, { onSuccess: onClose });
        }}
      >
        <Stack>
          <Textarea
            label="Reason"
            withAsterisk
            required
            value={draft.reason}
            onChange={(e) => setDraft({ ...draft, reason: e.currentTarget.value })}
            data-autofocus
          />
          <Select
            label="Cancelled by"
            value={draft.cancelled_by}
            allowDeselect={false}
            onChange={(v) => v && setDraft({ ...draft, cancelled_by: v })}
            data={['provider', 'teacher', 'partner', 'parent', 'student']}
          />
          <Checkbox
            label="Charge the customer"
            checked={draft.charge_customer}
            onChange={(e) => setDraft({ ...draft, charge_customer: e.currentTarget.checked })}
          />
          <Checkbox
            label="Pay the teacher"
            checked={draft.pay_teacher}
            onChange={(e) => setDraft({ ...draft, pay_teacher: e.currentTarget.checked })}
          />
          <ErrorLine error={cancel.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Keep the lesson
            </Button>
            <Button type="submit" color="red" loading={cancel.isPending}>
              Cancel the lesson
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RescheduleModal({ lesson, onClose }: { lesson: Lesson; onClose: () => void }) {
  const reschedule = useRescheduleLesson(lesson.id);
  const [date, setDate] = useState(lesson.local_date);
  const [start, setStart] = useState(lesson.local_start);
  const [duration, setDuration] = useState<number | string>(lesson.duration_minutes);
  const [reason, setReason] = useState('');
  return (
    <Modal opened onClose={onClose} title="Reschedule the lesson">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          reschedule.mutate(
            { local_date: date, local_start: start, duration_minutes: Number(duration), reason },
            { onSuccess: onClose },
          );
        }}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            Wall-clock time in {lesson.timezone}. A rescheduled lesson no longer follows its schedule.
          </Text>
          <DayInput label="Date" required value={date} onChange={(value) => setDate(value)} />
          <TextInput
            type="time"
            label="Start"
            required
            value={start}
            onChange={(e) => setStart(e.currentTarget.value)}
          />
          <NumberInput label="Minutes" min={5} max={720} value={duration} onChange={setDuration} />
          <Textarea
            label="Reason"
            required
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
          <ErrorLine error={reschedule.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" loading={reschedule.isPending}>
              Reschedule
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function CoverModal({ lesson, onClose }: { lesson: Lesson; onClose: () => void }) {
  const cover = useCoverTeacher(lesson.id);
  const teachers = useTeacherOptions();
  const [teacher, setTeacher] = useState<string | null>(lesson.cover_teacher_id);
  return (
    <Modal opened onClose={onClose} title="Cover teacher">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          cover.mutate(teacher, { onSuccess: onClose });
        }}
      >
        <Stack>
          <Select
            label="Cover teacher"
            placeholder={teachers.isLoading ? 'Loading teachers…' : 'No cover'}
            searchable
            clearable
            value={teacher}
            onChange={setTeacher}
            data={(teachers.data ?? []).filter((t) => t.value !== lesson.teacher_id)}
            error={teachers.isError ? 'Could not load the teachers' : undefined}
          />
          <ErrorLine error={cover.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" loading={cover.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function Notes({ lesson, editable }: { lesson: Lesson; editable: boolean }) {
  const save = useLessonNotes(lesson.id);
  const [notes, setNotes] = useState(lesson.notes ?? '');
  useEffect(() => setNotes(lesson.notes ?? ''), [lesson.notes]);
  if (lesson.notes === null) return null;
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="xs">
        <Textarea
          label="Notes"
          autosize
          minRows={3}
          readOnly={!editable}
          value={notes}
          onChange={(e) => setNotes(e.currentTarget.value)}
        />
        {editable && (
          <Group justify="flex-end">
            <Button
              size="xs"
              disabled={notes === (lesson.notes ?? '')}
              loading={save.isPending}
              onClick={() => save.mutate(notes)}
            >
              Save notes
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** lessons/:id and lessons/:id/details: one lesson; editors cancel, reschedule, assign cover, write notes. */
export function LessonDetailsPage() {
  const { id = '' } = useParams();
  const query = lessons.useOne(id);
  const timezone = viewerTimezone(useSession((s) => s.user));
  const permissions = usePermissions();
  const mayEdit = internalMay(permissions, INTERNAL_PERMISSIONS.LESSON_EDITS);
  const [open, setOpen] = useState<'cancel' | 'reschedule' | 'cover' | null>(null);
  const lesson = query.data;
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  const planned = lesson?.status === 'planned';
  return (
    <Stack gap="md">
      <title>{`${lesson?.programme_title ?? 'Lesson'} · ${PRODUCT_NAME}`}</title>
      <div>
        <Anchor component={Link} to="/lessons" size="sm">
          ← Lessons
        </Anchor>
        <Group justify="space-between" align="flex-end">
          <Title order={1} fz="h2">
            {lesson?.programme_title ?? 'Lesson'}
          </Title>
          {lesson && <JoinLessonButton lesson={lesson} />}
          {lesson && !mayEdit && <RequestCoverButton lesson={lesson} />}
          {lesson && mayEdit && planned && (
            <Group gap="xs">
              <RequestCoverButton lesson={lesson} />
              <Button variant="default" onClick={() => setOpen('reschedule')}>
                Reschedule
              </Button>
              <Button variant="default" onClick={() => setOpen('cover')}>
                Cover teacher
              </Button>
              <Button color="red" variant="light" onClick={() => setOpen('cancel')}>
                Cancel lesson
              </Button>
            </Group>
          )}
        </Group>
      </div>
      {query.isError ? (
        <Alert color="red" role="alert" title={notFound ? 'Lesson not found' : 'Could not load the lesson'}>
          {notFound ? 'This lesson does not exist or is not yours to see.' : actionErrorText(query.error)}
        </Alert>
      ) : !lesson ? (
        <Skeleton height={200} radius="md" aria-label="Loading lesson" />
      ) : (
        <>
          <Paper withBorder radius="md" p="md">
            <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
              <Field label="Status">
                <Badge variant="light" color={statusColor(lesson.status)}>
                  {statusLabel(lesson.status)}
                </Badge>
              </Field>
              <Field label="When (your time)">
                {formatInZone(lesson.starts_at, timezone, DATE_TIME_FORMAT)}–
                {formatInZone(lesson.ends_at, timezone, 'HH:mm')}
              </Field>
              <Field label="Planned at">
                {lesson.local_date.split('-').reverse().join('.')} {lesson.local_start} ({lesson.timezone})
              </Field>
              <Field label="Group">{lesson.group_name ?? '—'}</Field>
              <Field label="Teacher">{lesson.teacher_name ?? '—'}</Field>
              <Field label="Cover teacher">{lesson.cover_teacher_name ?? 'None'}</Field>
              <Field label="Length">{lesson.duration_minutes} minutes</Field>
              <Field label="From a schedule">
                {lesson.schedule_id
                  ? lesson.detached
                    ? 'Yes (rescheduled on its own)'
                    : 'Yes'
                  : 'No (one-off)'}
              </Field>
              {lesson.cancellation && (
                <Field label="Cancellation">
                  {lesson.cancellation.reason} — by {lesson.cancellation.cancelled_by}
                  {lesson.cancellation.charge_customer ? ', customer charged' : ''}
                  {lesson.cancellation.pay_teacher ? ', teacher paid' : ''}
                </Field>
              )}
            </SimpleGrid>
          </Paper>
          {lesson.status !== 'unscheduled' && mayReadRegister(permissions) && (
            <RegisterPanel lessonId={lesson.id} timezone={timezone} />
          )}
          <Notes lesson={lesson} editable={mayEdit} />
          {open === 'cancel' && <CancelModal lesson={lesson} onClose={() => setOpen(null)} />}
          {open === 'reschedule' && <RescheduleModal lesson={lesson} onClose={() => setOpen(null)} />}
          {open === 'cover' && <CoverModal lesson={lesson} onClose={() => setOpen(null)} />}
        </>
      )}
    </Stack>
  );
}

export default LessonDetailsPage;
