import { Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

interface StepFormProps {
  onClose: () => void;
  onSubmit: () => void;
  submitLabel: string;
  pending: boolean;
  children: ReactNode;
}

/** A step's fields, Cancel, and the step's button, as one form (Enter submits). */
export function StepForm({ onClose, onSubmit, submitLabel, pending, children }: StepFormProps) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <Stack gap="sm">
        {children}
        <Group justify="flex-end" mt="xs">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A small form for one workflow step in a modal: its fields, Cancel, and the step's button. */
export function StepModal({ title, opened, ...form }: StepFormProps & { title: string; opened: boolean }) {
  return (
    <Modal opened={opened} onClose={form.onClose} title={title} size="md">
      <StepForm {...form} />
    </Modal>
  );
}
