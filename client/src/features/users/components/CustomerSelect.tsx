import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRequest } from '../../../shared/api/client';
import type { Page } from '../../../shared/api/types';

interface CustomerSelectProps {
  value: string | null;
  /** The chosen customer's name when the list does not hold it (editing an existing user). */
  knownName?: string | null;
  onChange: (id: string | null) => void;
  error?: string;
  required?: boolean;
}

/** Searchable customer picker over GET /api/v1/customers (query, size). */
export function CustomerSelect({ value, knownName, onChange, error, required }: CustomerSelectProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const customers = useQuery({
    queryKey: ['customers', 'options', debounced],
    queryFn: ({ signal }) =>
      apiRequest<Page<{ id: string; name: string }>>('/api/v1/customers', {
        signal,
        query: { page: 1, size: 50, query: debounced || undefined, name: debounced || undefined },
      }),
    staleTime: 60_000,
  });
  const data = (customers.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }));
  if (value && knownName && !data.some((d) => d.value === value)) data.unshift({ value, label: knownName });
  return (
    <Select
      label="Customer"
      placeholder="Choose a customer"
      searchable
      clearable
      withAsterisk={required}
      data={data}
      value={value}
      onChange={onChange}
      onSearchChange={setSearch}
      nothingFoundMessage={customers.isFetching ? 'Loading…' : 'No customers found'}
      error={error}
    />
  );
}
