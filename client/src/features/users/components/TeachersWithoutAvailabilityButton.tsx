import { Button } from '@mantine/core';
import { useState } from 'react';
import { downloadFile } from '../../../shared/api/download';
import { notifyError, notifySuccess } from '../../../shared/notify';
import { Icon } from '../../../shared/ui/icons';

/**
 * Downloads GET /api/v1/users/teachers_without_availability_set/report (administrators): active
 * teachers with no availability this week (decision 0035).
 */
export function TeachersWithoutAvailabilityButton() {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="default"
      loading={busy}
      leftSection={<Icon name="report" size={16} />}
      onClick={() => {
        setBusy(true);
        downloadFile(
          '/api/v1/users/teachers_without_availability_set/report',
          {},
          'teachers-without-availability.csv',
        )
          .then((name) => notifySuccess(`Downloaded ${name}`))
          .catch((error: unknown) => notifyError(error, 'The report could not be downloaded'))
          .finally(() => setBusy(false));
      }}
    >
      Teachers without availability
    </Button>
  );
}
