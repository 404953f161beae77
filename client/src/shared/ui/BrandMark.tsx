import { Group, Text, ThemeIcon } from '@mantine/core';

export const PRODUCT_NAME = 'Tutoring Portal';

/** An open book: the product's mark. Decorative; the product name next to it carries the meaning. */
function BookIcon({ size }: { size: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M12 6.5C10.2 5.2 7.6 4.6 4 4.8v13.4c3.6-.2 6.2.4 8 1.8 1.8-1.4 4.4-2 8-1.8V4.8c-3.6-.2-6.2.4-8 1.7Z" />
      <path d="M12 6.5V20" />
    </svg>
  );
}

export function BrandMark({ size = 'md' }: { size?: 'sm' | 'md' }) {
  const small = size === 'sm';
  return (
    <Group gap={small ? 8 : 10} wrap="nowrap">
      <ThemeIcon size={small ? 32 : 40} radius="md" variant="filled" aria-hidden="true">
        <BookIcon size={small ? 18 : 22} />
      </ThemeIcon>
      <Text component="span" fw={700} fz={small ? 'md' : 'xl'} lh={1.1} c="var(--mantine-color-text)">
        {PRODUCT_NAME}
      </Text>
    </Group>
  );
}
