import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom';

/** What went wrong, in words a user can pass on (the technical message only as a detail). */
function describe(error: unknown): { title: string; detail: string | null; reload: boolean } {
  if (isRouteErrorResponse(error))
    return { title: `${error.status} ${error.statusText}`, detail: null, reload: false };
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : null;
  // A screen's code could not be fetched: usually a new version of the portal was deployed meanwhile.
  if (message && /dynamically imported module|Importing a module script failed|Loading chunk/i.test(message))
    return {
      title: 'This screen could not be loaded',
      detail: 'The portal may have been updated.',
      reload: true,
    };
  return { title: 'Something went wrong on this screen', detail: message, reload: true };
}

/**
 * The route error boundary: a screen that throws while rendering shows this inside the portal layout
 * (the sidebar and header stay usable) instead of the router's developer page. Nothing is lost on the
 * server: every change was already answered or refused by the API.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const { title, detail, reload } = describe(error);
  return (
    <Stack maw={640} py="xl" mx="auto">
      <Alert color="red" title={title} role="alert">
        <Text size="sm">
          Reload the page to try again. If it keeps happening, tell your administrator what you were doing and
          the message below.
        </Text>
        {detail && (
          <Code block mt="sm">
            {detail}
          </Code>
        )}
        <Group mt="md">
          {reload && <Button onClick={() => window.location.reload()}>Reload</Button>}
          <Button variant="default" component={Link} to="/">
            Go to the portal
          </Button>
        </Group>
      </Alert>
    </Stack>
  );
}
