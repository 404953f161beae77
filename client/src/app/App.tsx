import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo } from 'react';
import { RouterProvider } from 'react-router-dom';
import { NOTIFICATION_TIMEOUT_MS } from '../shared/errors';
import { useSession } from '../shared/session';
import { queryClient } from './query-client';
import { router } from './router';
import { contrastVariables, themeFor } from './theme';

export function App() {
  const user = useSession((state) => state.user);
  const theme = useMemo(() => themeFor(user), [user]);
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={contrastVariables}>
      {/* Bottom right: toasts never cover the header's account menu (issue 18). */}
      <Notifications position="bottom-right" autoClose={NOTIFICATION_TIMEOUT_MS} limit={5} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
