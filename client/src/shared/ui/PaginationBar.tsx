import { ActionIcon, Button, Group, Select, Text, VisuallyHidden } from '@mantine/core';
import { PER_PAGE_OPTIONS, pageCount, pageWindow } from '../pagination';
import { Icon } from './icons';

interface PaginationBarProps {
  page: number;
  perPage: number;
  total: number;
  onPageChange: (page: number) => void;
  /** The caller resets to page 1 (spec §5). */
  onPerPageChange: (perPage: number) => void;
  label?: string;
  /**
   * False when the server stopped counting (decision 0069): there are at least `total` rows. The bar then
   * says "more than …", offers `onCountExactly`, and cannot jump to the last page until it is counted.
   */
  totalExact?: boolean;
  onCountExactly?: () => void;
}

/** Spec §9 pagination: 5 page links, first/previous/next/last, a per-page selector and the range shown. */
export function PaginationBar({
  page,
  perPage,
  total,
  onPageChange,
  onPerPageChange,
  label,
  totalExact = true,
  onCountExactly,
}: PaginationBarProps) {
  const pages = pageCount(total, perPage);
  const from = total === 0 ? 0 : (page - 1) * perPage + 1;
  const to = Math.min(total, page * perPage);
  return (
    <Group justify="space-between" wrap="wrap" gap="sm" mt="sm">
      <Group gap="xs">
        <Select
          aria-label="Rows per page"
          w={90}
          size="xs"
          data={PER_PAGE_OPTIONS.map(String)}
          value={String(perPage)}
          allowDeselect={false}
          onChange={(value) => value && onPerPageChange(Number(value))}
        />
        <Text size="sm" c="dimmed">
          per page
        </Text>
        <Text size="sm" c="dimmed" aria-live="polite" ml="sm">
          {total === 0
            ? 'No records'
            : totalExact
              ? `${from}–${to} of ${total.toLocaleString('en-GB')}`
              : `${from}–${to} of more than ${(total - 1).toLocaleString('en-GB')}`}
        </Text>
        {!totalExact && onCountExactly && (
          <Button size="compact-xs" variant="subtle" onClick={onCountExactly}>
            Count all
          </Button>
        )}
      </Group>
      <nav aria-label={label ?? 'Pagination'}>
        <Group gap={4}>
          <ActionIcon
            variant="default"
            aria-label="First page"
            disabled={page <= 1}
            onClick={() => onPageChange(1)}
          >
            <span aria-hidden>«</span>
          </ActionIcon>
          <ActionIcon
            variant="default"
            aria-label="Previous page"
            disabled={page <= 1}
            onClick={() => onPageChange(page - 1)}
          >
            <Icon name="arrowLeft" size={14} />
          </ActionIcon>
          {pageWindow(page, pages).map((n) => (
            <Button
              key={n}
              size="compact-sm"
              miw={32}
              variant={n === page ? 'filled' : 'default'}
              aria-current={n === page ? 'page' : undefined}
              onClick={() => onPageChange(n)}
            >
              <VisuallyHidden>Page </VisuallyHidden>
              {n}
            </Button>
          ))}
          <ActionIcon
            variant="default"
            aria-label="Next page"
            disabled={page >= pages}
            onClick={() => onPageChange(page + 1)}
          >
            <Icon name="arrowRight" size={14} />
          </ActionIcon>
          <ActionIcon
            variant="default"
            aria-label="Last page"
            title={totalExact ? undefined : 'Count all to go to the last page'}
            disabled={page >= pages || !totalExact}
            onClick={() => onPageChange(pages)}
          >
            <span aria-hidden>»</span>
          </ActionIcon>
        </Group>
      </nav>
    </Group>
  );
}
