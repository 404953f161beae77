import { Button, Card, Select, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { useState } from 'react';
import { useSession } from '../../../shared/session';
import { ALLOWED_FROM, RISK_LEVELS, safeguardingApi, type IncidentDetails, type RiskLevel } from '../api';
import { useSafeguardingCommand } from '../hooks';
import { StepModal } from '../../../shared/ui/StepModal';
import { TextStepModal } from '../../../shared/ui/TextStepModal';

type Step = 'action' | 'informPartner' | 'partnerFeedback' | 'close' | 'reopen' | 'risk' | null;

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The next steps an incident allows, as buttons; each opens its small form. The server has the last word. */
export function WorkflowPanel({ incident, isLead }: { incident: IncidentDetails; isLead: boolean }) {
  const me = useSession((s) => s.user);
  const [step, setStep] = useState<Step>(null);
  const [text, setText] = useState('');
  const [text2, setText2] = useState('');
  const [agency, setAgency] = useState('');
  const [reference, setReference] = useState('');
  const [due, setDue] = useState<string | null>(null);
  const [risk, setRisk] = useState<RiskLevel>(incident.risk_level);
  const [error, setError] = useState<string | null>(null);
  const id = incident.id;
  const command = useSafeguardingCommand(
    ({ path, body }: { path: string; body?: Record<string, unknown> }) =>
      safeguardingApi.step(id, path, body),
    'Saved',
  );
  const allowed = (key: keyof typeof ALLOWED_FROM) =>
    (ALLOWED_FROM[key] as readonly string[]).includes(incident.status);
  const open = (next: Step) => {
    setText('');
    setText2('');
    setAgency('');
    setReference('');
    setDue(null);
    setError(null);
    setRisk(incident.risk_level);
    setStep(next);
  };
  const run = (path: string, body?: Record<string, unknown>, required?: [string, string]) => {
    if (required && !required[0].trim()) {
      setError(required[1]);
      return;
    }
    command.mutate({ path, body }, { onSuccess: () => setStep(null) });
  };

  if (!isLead)
    return (
      <Card withBorder radius="md">
        <Title order={2} fz="h5" mb={4}>
          Next steps
        </Title>
        <Text size="sm" c="dimmed">
          A safeguarding lead acknowledges, reviews and closes incidents. You can keep adding to the write-up.
        </Text>
      </Card>
    );

  return (
    <Card withBorder radius="md">
      <Title order={2} fz="h5" mb="sm">
        Next steps
      </Title>
      <Stack gap="xs">
        {allowed('acknowledge') && (
          <Button color="red" onClick={() => run('acknowledge')} loading={command.isPending}>
            Acknowledge
          </Button>
        )}
        {allowed('review') && (
          <Button onClick={() => run('review', me ? { lead_id: me.id } : {})} loading={command.isPending}>
            Start review (assign to me)
          </Button>
        )}
        {allowed('action') && (
          <Button variant="light" onClick={() => open('action')}>
            Add an action or referral
          </Button>
        )}
        {allowed('informPartner') && (
          <Button variant="light" onClick={() => open('informPartner')}>
            Record that the school was informed
          </Button>
        )}
        {allowed('partnerFeedback') && (
          <Button variant="light" onClick={() => open('partnerFeedback')}>
            Record the school's feedback
          </Button>
        )}
        {allowed('close') && (
          <Button variant="default" onClick={() => open('close')}>
            Close incident
          </Button>
        )}
        {allowed('reopen') && (
          <Button variant="default" onClick={() => open('reopen')}>
            Reopen
          </Button>
        )}
        {incident.status !== 'closed' && (
          <Button variant="subtle" onClick={() => open('risk')}>
            Change risk level
          </Button>
        )}
      </Stack>

      <StepModal
        title="Add an action"
        opened={step === 'action'}
        onClose={() => setStep(null)}
        submitLabel="Add action"
        pending={command.isPending}
        onSubmit={() => {
          if (!text.trim() || !due) {
            setError(!text.trim() ? 'Describe the action' : 'Choose a due date');
            return;
          }
          run('actions', {
            description: text.trim(),
            assignee_id: me?.id,
            due_date: due.slice(0, 10),
            ...(agency.trim()
              ? { referral_agency: agency.trim(), referral_reference: reference.trim() || undefined }
              : {}),
          });
        }}
      >
        <Textarea
          label="Action"
          withAsterisk
          autosize
          minRows={2}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          error={error === 'Describe the action' ? error : undefined}
          data-autofocus
        />
        <DateInput
          label="Due date"
          withAsterisk
          valueFormat="DD.MM.YYYY"
          value={due}
          onChange={setDue}
          minDate={new Date()}
          error={error === 'Choose a due date' ? error : undefined}
        />
        <TextInput
          label="Referred to (agency, if any)"
          placeholder="Children's services, police, CAMHS…"
          value={agency}
          onChange={(e) => setAgency(e.currentTarget.value)}
        />
        {agency.trim() && (
          <TextInput
            label="Agency reference"
            value={reference}
            onChange={(e) => setReference(e.currentTarget.value)}
          />
        )}
        <Text size="xs" c="dimmed">
          The action is assigned to you; reassign it in the write-up if someone else takes it.
        </Text>
      </StepModal>

      <StepModal
        title="School informed"
        opened={step === 'informPartner'}
        onClose={() => setStep(null)}
        submitLabel="Save"
        pending={command.isPending}
        onSubmit={() =>
          text.trim()
            ? run('partner-informed', { method: text.trim(), note: text2.trim() }, [text2, 'Add a note'])
            : setError('Say how')
        }
      >
        <TextInput
          label="How"
          placeholder="Phone call, meeting, secure email…"
          withAsterisk
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          error={error === 'Say how' ? error : undefined}
          data-autofocus
        />
        <Textarea
          label="Note"
          withAsterisk
          autosize
          minRows={3}
          value={text2}
          onChange={(e) => setText2(e.currentTarget.value)}
          error={error === 'Add a note' ? error : undefined}
        />
      </StepModal>

      <TextStepModal
        title="The school's feedback"
        opened={step === 'partnerFeedback'}
        onClose={() => setStep(null)}
        submitLabel="Save feedback"
        pending={command.isPending}
        label="Feedback"
        requiredMessage="Write the feedback"
        minRows={4}
        onSubmit={(feedback) => run('partner-feedback', { feedback })}
      />

      <TextStepModal
        title="Close incident"
        opened={step === 'close'}
        onClose={() => setStep(null)}
        submitLabel="Close incident"
        pending={command.isPending}
        label="Outcome"
        requiredMessage="Record the outcome"
        onSubmit={(outcome) => run('close', { outcome })}
      />

      <TextStepModal
        title="Reopen incident"
        opened={step === 'reopen'}
        onClose={() => setStep(null)}
        submitLabel="Reopen"
        pending={command.isPending}
        label="Reason"
        requiredMessage="Say why it is reopened"
        onSubmit={(reason) => run('reopen', { reason })}
      />

      <TextStepModal
        title="Change risk level"
        opened={step === 'risk'}
        onClose={() => setStep(null)}
        submitLabel="Change risk"
        pending={command.isPending}
        label="Reason"
        requiredMessage="A reason is required"
        onSubmit={(reason) => run('risk', { risk_level: risk, reason })}
      >
        <Select
          label="Risk level"
          withAsterisk
          data={RISK_LEVELS.map((r) => ({ value: r, label: capitalise(r) }))}
          value={risk}
          onChange={(v) => v && setRisk(v)}
          allowDeselect={false}
        />
      </TextStepModal>
    </Card>
  );
}
