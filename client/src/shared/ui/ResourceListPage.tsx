import 'mantine-datatable/styles.css';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
  type MantineSpacing,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import type { UseQueryResult } from '@tanstack/react-query';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { Query } from '../api/client';
import type { ListParams } from '../api/resource';
import type { Page } from '../api/types';
import { clampPage, DEFAULT_PER_PAGE } from '../pagination';
import { useListState } from '../routing/list-state';
import { actionErrorText } from './action-error';
import { PRODUCT_NAME } from './BrandMark';
import { PaginationBar } from './PaginationBar';
import { emptyMessage, filtersKey, opensRow, type EmptyText } from './resource-list';

export interface ResourceListPageProps<T, Filters extends Query = Query> {
  /** The page's h1 and document title. */
  title: string;
  /** A small overline above the title (the menu section). */
  eyebrow?: string;
  description?: ReactNode;
  /** Buttons at the top right ("New network"). */
  action?: ReactNode;
  /** Shown between the header and the list (a read-only note). */
  notice?: ReactNode;
  /** The list's name in plural, lower case: "networks" (loading label, error title, pagination label). */
  noun: string;
  /** The table's accessible name; defaults to the title. */
  tableLabel?: string;
  /** A search box (debounced 300 ms, back to page 1); omit for lists without search. */
  search?: { label: string; placeholder?: string };
  /** Tabs, selects…: shown above the table. Changing `filters` sends the list back to page 1. */
  toolbar?: ReactNode;
  filters?: Filters;
  /** The resource's list hook, e.g. `networks.useList`. */
  useList: (params: ListParams<Filters>) => UseQueryResult<Page<T>, Error>;
  columns: DataTableColumn<T>[];
  /** The page a row opens (click, or Enter / Space on the focused row). */
  rowHref?: (row: T) => string;
  /** The row's accessible name (what a screen reader says on focus). */
  rowLabel?: (row: T) => string;
  rowClassName?: (row: T) => string | undefined;
  rowAttributes?: (row: T) => Record<string, unknown>;
  empty: EmptyText<ReactNode>;
  /** Rows per page to start with (default 10, spec §9). */
  perPage?: number;
  /** Extra content below the list (modals). */
  children?: ReactNode;
  gap?: MantineSpacing;
}

/**
 * The list screen every area uses (ADR 0043): header, optional search and filters, an error alert with
 * Retry, a skeleton on the first load, the empty text, a `mantine-datatable` table whose rows open their
 * page, and our `PaginationBar` (spec §5, §9: 10 per page, back to page 1 when the search or a filter
 * changes or the total shrinks below the page).
 */
export function ResourceListPage<T, Filters extends Query = Query>(props: ResourceListPageProps<T, Filters>) {
  const { title, noun, search: searchBox, filters, useList, rowHref, rowLabel, rowAttributes } = props;
  const navigate = useNavigate();
  // Search, page and page size live in the address: they survive Back and reload (issue 18).
  const [list, setList] = useListState({ size: props.perPage ?? DEFAULT_PER_PAGE });
  const { q: search, page, size: perPage } = list;
  const setPage = (next: number) => setList({ page: next });
  const [searchInput, setSearchInput] = useState(search);
  const [debounced] = useDebouncedValue(searchInput, 300);
  useEffect(() => {
    if (debounced.trim() !== search) setList({ q: debounced.trim() });
  }, [debounced]);
  const query = useList({ ...(filters as Filters), page, size: perPage, ...(searchBox && { search }) });
  const total = query.data?.total ?? 0;

  // A filter change (the page's own state) sends the list back to page 1; the first render does not.
  const filterKey = filtersKey(filters);
  const shownFilters = useRef(filterKey);
  useEffect(() => {
    if (shownFilters.current === filterKey) return;
    shownFilters.current = filterKey;
    setList({ page: 1 });
  }, [filterKey]);
  useEffect(() => {
    if (query.data && !query.isPlaceholderData) {
      const next = clampPage(page, query.data.total, perPage);
      if (next !== page) setPage(next);
    }
  }, [query.data, query.isPlaceholderData, page, perPage]);

  const open = rowHref ? (row: T) => void navigate(rowHref(row)) : undefined;
  const empty = emptyMessage(props.empty, search);
  // Phones (issue 18 item 9): each record becomes a card with every column, nothing clipped.
  const phone = useMediaQuery('(max-width: 40em)') ?? false;

  return (
    <Stack gap={props.gap ?? 'md'}>
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <Group justify="space-between" align="flex-end">
        <div>
          {props.eyebrow && (
            <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.6}>
              {props.eyebrow}
            </Text>
          )}
          <Title order={1} fz="h2">
            {title}
          </Title>
          {props.description && (
            <Text c="dimmed" mt={4} maw={760}>
              {props.description}
            </Text>
          )}
        </div>
        {props.action && <Group>{props.action}</Group>}
      </Group>
      {props.notice}
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm" mb="sm">
          {searchBox && (
            <TextInput
              label={searchBox.label}
              placeholder={searchBox.placeholder}
              type="search"
              value={searchInput}
              onChange={(e) => setSearchInput(e.currentTarget.value)}
              w={{ base: '100%', sm: 320 }}
            />
          )}
          {props.toolbar}
        </Stack>
        {query.isError ? (
          <Alert color="red" role="alert" title={`The ${noun} could not be loaded`}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{actionErrorText(query.error)}</Text>
              <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
                Retry
              </Button>
            </Stack>
          </Alert>
        ) : query.isPending ? (
          <Stack gap={8} aria-busy="true" aria-label={`Loading ${noun}`} py="xs">
            {Array.from({ length: 5 }, (_, i) => (
              <Skeleton key={i} height={28} radius="sm" />
            ))}
          </Stack>
        ) : phone ? (
          <RecordCards
            label={props.tableLabel ?? title}
            records={query.data?.items ?? []}
            columns={props.columns}
            empty={empty}
            open={open}
            rowLabel={rowLabel}
            rowClassName={props.rowClassName}
            rowAttributes={rowAttributes}
          />
        ) : (
          <DataTable<T>
            aria-label={props.tableLabel ?? title}
            minHeight={total === 0 ? 160 : 100}
            withTableBorder={false}
            highlightOnHover
            verticalAlign="center"
            records={query.data?.items ?? []}
            fetching={query.isPlaceholderData}
            {...(typeof empty === 'string' ? { noRecordsText: empty } : { emptyState: empty })}
            columns={props.columns}
            onRowClick={open ? ({ record }) => open(record) : undefined}
            rowClassName={props.rowClassName}
            rowStyle={open ? () => ({ cursor: 'pointer' }) : undefined}
            customRowAttributes={(row) => ({
              ...(open && {
                tabIndex: 0,
                onKeyDown: (event: KeyboardEvent<HTMLTableRowElement>) => {
                  if (!opensRow(event)) return;
                  event.preventDefault();
                  open(row);
                },
              }),
              ...(rowLabel && { 'aria-label': rowLabel(row) }),
              ...rowAttributes?.(row),
            })}
          />
        )}
        <PaginationBar
          label={`Pages of ${noun}`}
          page={page}
          perPage={perPage}
          total={total}
          onPageChange={setPage}
          onPerPageChange={(next) => setList({ size: next })}
        />
      </Paper>
      {props.children}
    </Stack>
  );
}

/** The link a row's main column shows (the row opens on click too; the link keeps it a real link). */
export function RowLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} fw={600} onClick={(e) => e.stopPropagation()}>
      {children}
    </Anchor>
  );
}

/** A column's value for a record: its `render`, else the (dotted) accessor's value. */
function cellOf<T>(column: DataTableColumn<T>, record: T, index: number): ReactNode {
  if (column.render) return column.render(record, index);
  const value = String(column.accessor)
    .split('.')
    .reduce<unknown>(
      (v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined),
      record,
    );
  if (value === null || value === undefined || value === '') return '—';
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : JSON.stringify(value);
}

/** The list as cards (phones): each card shows every column as "title: value" and opens like a row. */
function RecordCards<T>({
  label,
  records,
  columns,
  empty,
  open,
  rowLabel,
  rowClassName,
  rowAttributes,
}: {
  label: string;
  records: T[];
  columns: DataTableColumn<T>[];
  empty: ReactNode;
  open?: (row: T) => void;
  rowLabel?: (row: T) => string;
  rowClassName?: (row: T) => string | undefined;
  rowAttributes?: (row: T) => Record<string, unknown>;
}) {
  if (records.length === 0)
    return (
      <Stack align="center" py="lg">
        {typeof empty === 'string' ? <Text c="dimmed">{empty}</Text> : empty}
      </Stack>
    );
  const shown = columns.filter((c) => !c.hidden);
  return (
    <Stack gap="sm" role="list" aria-label={label}>
      {records.map((record, index) => (
        <Paper
          key={index}
          withBorder
          radius="md"
          p="sm"
          role="listitem"
          className={rowClassName?.(record)}
          aria-label={rowLabel?.(record)}
          {...rowAttributes?.(record)}
          {...(open && {
            tabIndex: 0,
            style: { cursor: 'pointer' },
            onClick: () => open(record),
            onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => {
              if (!opensRow(event)) return;
              event.preventDefault();
              open(record);
            },
          })}
        >
          <Stack gap={6}>
            {shown.map((column) => (
              <Group key={String(column.accessor)} gap="xs" wrap="nowrap" align="flex-start">
                {column.title !== undefined && column.title !== '' && (
                  <Text size="xs" c="dimmed" w={96} style={{ flexShrink: 0 }}>
                    {column.title}
                  </Text>
                )}
                <div style={{ minWidth: 0, flex: 1 }}>{cellOf(column, record, index)}</div>
              </Group>
            ))}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
