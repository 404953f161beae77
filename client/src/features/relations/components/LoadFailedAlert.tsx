import { Alert, Button, Group } from '@mantine/core';
import { actionErrorText } from '../../../shared/ui/action-error';

/** A read that failed: what could not be loaded, why (the server's words), and a way to try again. */
export function LoadFailedAlert({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
}) {
  return (
    <Alert color="red" role="alert" title={title}>
      {actionErrorText(error)}
      <Group mt="xs">
        <Button size="xs" variant="default" onClick={onRetry}>
          Try again
        </Button>
      </Group>
    </Alert>
  );
}
