import {
  Anchor,
  Button,
  Card,
  Group,
  MultiSelect,
  NavLink,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { downloadFile } from '../../../shared/api/download';
import { notifyError, notifySuccess } from '../../../shared/notify';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { Icon } from '../../../shared/ui/icons';
import { useCustomerOptions } from '../../programmes/api';
import { KEY_STAGE_LABELS, products, subjects, yearGroups } from '../../reference/api';
import {
  REPORTS,
  missingChoice,
  reportNamed,
  reportRequest,
  type ReportChoices,
  type ReportDefinition,
} from '../catalogue';
import { DayInput } from '../../../shared/ui/DayInput';

const EMPTY: ReportChoices = {
  from: null,
  to: null,
  customerId: null,
  productIds: [],
  subjectIds: [],
  yearGroupIds: [],
  keyStages: [],
  week: null,
  excel: false,
};

const ALL = { page: 1, size: 500 };

/** One report's choices and its download button. */
function ReportForm({ report }: { report: ReportDefinition }) {
  const [choices, setChoices] = useState<ReportChoices>(EMPTY);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<ReportChoices>) => setChoices((c) => ({ ...c, ...patch }));
  const has = (f: ReportDefinition['filters'][number]) => report.filters.includes(f);
  const customers = useCustomerOptions(has('customer') || has('customer_optional'));
  const subjectList = subjects.useList(ALL, { enabled: has('subjects') });
  const productList = products.useList(ALL, { enabled: has('products') });
  const yearGroupList = yearGroups.useList(ALL, { enabled: has('year_groups') });
  const missing = missingChoice(report, choices);
  const download = () => {
    const { path, query } = reportRequest(report, choices);
    setBusy(true);
    downloadFile(path, query, report.fallbackName.replace(/\.csv$/, choices.excel ? '.xlsx' : '.csv'))
      .then((name) => notifySuccess(`Downloaded ${name}`))
      .catch((error: unknown) => notifyError(error, 'The report could not be downloaded'))
      .finally(() => setBusy(false));
  };
  const options = (items: { id: string; name: string }[] | undefined) =>
    (items ?? []).map((i) => ({ value: i.id, label: i.name }));
  return (
    <Card withBorder padding="lg" radius="md">
      <Stack gap="sm">
        <Title order={2} fz="h3">
          {report.title}
        </Title>
        <Text size="sm" c="dimmed">
          {report.description}
        </Text>
        {report.dates && (
          <Group grow align="flex-start">
            <DayInput
              label="First day"
              description="Default: 1 September (30 days back for active students)"
              value={choices.from ?? ''}
              onChange={(value) => set({ from: value || null })}
            />
            <DayInput
              label="Last day"
              description="Included; default: today"
              value={choices.to ?? ''}
              onChange={(value) => set({ to: value || null })}
            />
          </Group>
        )}
        {has('week') && (
          <DayInput
            label="Week (its Monday)"
            description="Default: this week"
            value={choices.week ?? ''}
            onChange={(value) => set({ week: value || null })}
          />
        )}
        {(has('customer') || has('customer_optional')) && (
          <Select
            label="School"
            placeholder={has('customer') ? 'Choose a school' : 'All schools'}
            searchable
            clearable={has('customer_optional')}
            required={has('customer')}
            data={options(customers.data?.items)}
            value={choices.customerId}
            onChange={(value) => set({ customerId: value })}
          />
        )}
        {has('products') && (
          <MultiSelect
            label="Products"
            placeholder="All products"
            searchable
            data={options(productList.data?.items)}
            value={choices.productIds}
            onChange={(value) => set({ productIds: value })}
          />
        )}
        {has('subjects') && (
          <MultiSelect
            label="Subjects"
            placeholder="All subjects"
            searchable
            data={options(subjectList.data?.items)}
            value={choices.subjectIds}
            onChange={(value) => set({ subjectIds: value })}
          />
        )}
        {has('year_groups') && (
          <MultiSelect
            label="Year groups"
            placeholder="All year groups"
            searchable
            data={options(yearGroupList.data?.items)}
            value={choices.yearGroupIds}
            onChange={(value) => set({ yearGroupIds: value })}
          />
        )}
        {has('key_stages') && (
          <MultiSelect
            label="Key stages"
            placeholder="All key stages"
            data={[
              ...Object.entries(KEY_STAGE_LABELS).map(([value, label]) => ({ value, label })),
              { value: 'Not set', label: 'Not set' },
            ]}
            value={choices.keyStages}
            onChange={(value) => set({ keyStages: value })}
          />
        )}
        <Group justify="space-between" align="center" mt="xs">
          <SegmentedControl
            aria-label="File format"
            data={[
              { value: 'csv', label: 'CSV' },
              { value: 'xlsx', label: 'Excel (.xlsx)' },
            ]}
            value={choices.excel ? 'xlsx' : 'csv'}
            onChange={(value) => set({ excel: value === 'xlsx' })}
          />
          <Button
            onClick={download}
            loading={busy}
            disabled={missing !== null}
            leftSection={<Icon name="report" size={16} />}
          >
            Download
          </Button>
        </Group>
        {missing && (
          <Text size="sm" c="dimmed" role="status">
            {missing}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/** reports/:reportName? — the report files administrators download (decision 0058). */
export function ReportsPage() {
  const { reportName } = useParams();
  const report = reportNamed(reportName);
  return (
    <Stack gap="md">
      <title>{`${report ? report.title : 'Reports'} · ${PRODUCT_NAME}`}</title>
      <Title order={1} fz="h2">
        Reports
      </Title>
      {reportName && !report && (
        <Text role="alert">
          There is no report called “{reportName}”.{' '}
          <Anchor component={Link} to="/reports">
            All reports
          </Anchor>
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        <nav aria-label="Reports">
          {REPORTS.map((r) => (
            <NavLink
              key={r.name}
              component={Link}
              to={`/reports/${r.name}`}
              label={r.title}
              active={r.name === report?.name}
              aria-current={r.name === report?.name ? 'page' : undefined}
            />
          ))}
        </nav>
        <div style={{ gridColumn: 'span 2' }}>
          {report ? (
            <ReportForm key={report.name} report={report} />
          ) : (
            <Text c="dimmed">Choose a report on the left: each downloads as CSV or Excel.</Text>
          )}
        </div>
      </SimpleGrid>
    </Stack>
  );
}

export default ReportsPage;
