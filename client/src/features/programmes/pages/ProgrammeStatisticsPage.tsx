import { Alert, Button, Card, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { useProgrammeStatistics } from '../api';

/** Counts of the programmes the viewer may see: by status, by product, by school; students enrolled. */
export function ProgrammeStatisticsPage() {
  const stats = useProgrammeStatistics();
  return (
    <Stack gap="lg">
      <title>{`Programme statistics · ${PRODUCT_NAME}`}</title>
      <Title order={1}>Programme statistics</Title>
      {stats.isPending ? (
        <Skeleton height={160} aria-label="Loading statistics" />
      ) : stats.isError ? (
        <Alert color="red" title="Statistics could not be loaded" role="alert">
          <Button variant="default" size="xs" onClick={() => void stats.refetch()}>
            Retry
          </Button>
        </Alert>
      ) : stats.data.total === 0 ? (
        <Text c="dimmed">No programmes yet.</Text>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Card withBorder>
              <Text size="sm" c="dimmed">
                Programmes
              </Text>
              <Text fz={32} fw={700}>
                {stats.data.total}
              </Text>
            </Card>
            <Card withBorder>
              <Text size="sm" c="dimmed">
                Students enrolled
              </Text>
              <Text fz={32} fw={700}>
                {stats.data.students_enrolled}
              </Text>
            </Card>
          </SimpleGrid>
          <Group align="flex-start" grow>
            <CountTable
              label="By status"
              rows={stats.data.by_status.map((r) => [r.status, r.count] as const)}
            />
            <CountTable
              label="By school"
              rows={stats.data.by_customer.map((r) => [r.customer_name ?? r.customer_id, r.count] as const)}
            />
            <CountTable
              label="By product"
              rows={stats.data.by_product.map((r) => [r.product_id ?? 'No product', r.count] as const)}
            />
          </Group>
        </>
      )}
    </Stack>
  );
}

function CountTable({ label, rows }: { label: string; rows: (readonly [string, number])[] }) {
  return (
    <Card withBorder p={0}>
      <Title order={2} fz="h5" p="md" pb={0}>
        {label}
      </Title>
      <Table aria-label={label}>
        <Table.Tbody>
          {rows.map(([name, count]) => (
            <Table.Tr key={name}>
              <Table.Td>{name}</Table.Td>
              <Table.Td ta="right">{count}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
