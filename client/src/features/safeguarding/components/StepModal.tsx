import { Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/** A small form for one workflow step: its fields, Cancel, and the step's button. */
export function StepModal({
  title,
  opened,
  onClose,
  onSubmit,
  submitLabel,
  pending,
  children,
}: {
  title: string;
  opened: boolean;
  onClose: () => void;
  onSubmit: () => void;
  submitLabel: string;
  pending: boolean;
  children: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="md">
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
    </Modal>
  );
}
