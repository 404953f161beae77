import { Modal, Textarea } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { StepForm } from './StepModal';

interface TextStepModalProps {
  title: string;
  opened: boolean;
  onClose: () => void;
  /** Called with the trimmed text once it is not empty. */
  onSubmit: (text: string) => void;
  submitLabel: string;
  pending: boolean;
  /** The text field's label ("Outcome", "Reason", …). */
  label: string;
  /** Shown under the field when it is submitted empty. */
  requiredMessage: string;
  minRows?: number;
  /** Fields shown above the text (e.g. a select); the text field is then not focused first. */
  children?: ReactNode;
}

/**
 * A workflow step that needs one required text (an outcome, a reason, feedback). The text starts empty
 * each time the modal opens: the modal unmounts its body when closed.
 */
export function TextStepModal({ title, opened, onClose, ...body }: TextStepModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="md">
      <TextStepBody onClose={onClose} {...body} />
    </Modal>
  );
}

function TextStepBody({
  onClose,
  onSubmit,
  submitLabel,
  pending,
  label,
  requiredMessage,
  minRows = 3,
  children,
}: Omit<TextStepModalProps, 'title' | 'opened'>) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  return (
    <StepForm
      onClose={onClose}
      submitLabel={submitLabel}
      pending={pending}
      onSubmit={() => {
        if (!text.trim()) setError(requiredMessage);
        else onSubmit(text.trim());
      }}
    >
      {children}
      <Textarea
        label={label}
        withAsterisk
        autosize
        minRows={minRows}
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          setError(undefined);
        }}
        error={error}
        data-autofocus={children ? undefined : true}
      />
    </StepForm>
  );
}
