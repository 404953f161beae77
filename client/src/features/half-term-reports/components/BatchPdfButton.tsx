import { Button, Group, Loader, Text } from '@mantine/core';
import { useState } from 'react';
import { downloadFile } from '../../../shared/api/download';
import { notifyError } from '../../../shared/notify';
import { timeframes } from '../api';

const size = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Downloads a timeframe's published reports (of one school with `customerId`) as one zip of PDFs
 * rendered on the server (decision 0068). Rendering takes a moment per report, so the button says how
 * many reports are coming and how much has arrived while the zip streams in.
 */
export function BatchPdfButton({
  timeframeId,
  customerId,
  label,
  compact = false,
}: {
  timeframeId: string;
  customerId?: string;
  label: string;
  compact?: boolean;
}) {
  const [progress, setProgress] = useState<{ received: number; count: string | null } | null>(null);
  const run = async () => {
    setProgress({ received: 0, count: null });
    try {
      await downloadFile(
        timeframes.url(timeframeId, '/pdfs'),
        customerId ? { customer_id: customerId } : {},
        'half-term-reports.zip',
        (received, headers) => setProgress({ received, count: headers.get('x-report-count') }),
      );
    } catch (e) {
      notifyError(e);
    } finally {
      setProgress(null);
    }
  };
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        variant="default"
        size={compact ? 'compact-xs' : 'sm'}
        disabled={progress !== null}
        onClick={(e) => {
          e.stopPropagation();
          void run();
        }}
      >
        {label}
      </Button>
      {progress && (
        <Group gap={4} wrap="nowrap" role="status" aria-live="polite">
          <Loader size="xs" />
          <Text size="xs" c="dimmed">
            {progress.count === null
              ? 'Rendering the PDFs…'
              : `${progress.count} report${progress.count === '1' ? '' : 's'}: ${size(progress.received)} received`}
          </Text>
        </Group>
      )}
    </Group>
  );
}
