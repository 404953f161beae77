import { Skeleton, Stack } from '@mantine/core';

/** Placeholder while a screen's code or first data loads. */
export function ScreenSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <Stack gap="sm" aria-busy="true" aria-label="Loading">
      <Skeleton height={14} width={90} radius="sm" />
      <Skeleton height={32} width="40%" radius="sm" />
      <Skeleton height={80} radius="md" mt="sm" />
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={36} radius="sm" />
      ))}
    </Stack>
  );
}
