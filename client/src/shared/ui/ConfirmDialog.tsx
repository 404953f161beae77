import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { actionErrorText } from './action-error';

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  pending: boolean;
  error: unknown;
  /** Extra inputs (a reason, a date) between the message and the buttons. */
  children?: ReactNode;
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** A confirmation step for an account action; a failure stays in the dialog, in words, until retried. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { opened, title, message, confirmLabel, danger, pending, error, children, onConfirm, onClose } =
    props;
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm();
        }}
      >
        <Stack gap="sm">
          <Text size="sm">{message}</Text>
          {children}
          {error != null && (
            <Alert color="red" role="alert" title="That did not work">
              {actionErrorText(error)}
            </Alert>
          )}
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              type="submit"
              color={danger ? 'red' : undefined}
              loading={pending}
              disabled={props.confirmDisabled}
              data-autofocus={children ? undefined : true}
            >
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
