import { Button, Card, Flex, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Icon } from '../../../shared/ui/icons';

// The form (with its date picker) loads only when someone opens it.
const ReportIncidentModal = lazy(() =>
  import('./ReportIncidentModal').then((m) => ({ default: m.ReportIncidentModal })),
);

/**
 * Every teacher and super admin (and permitted partners) can report a safeguarding concern from the
 * dashboard, whether or not they may see the safeguarding area; the report then opens for them.
 */
export function ReportConcernCard() {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  return (
    <Card withBorder radius="lg" padding="lg" shadow="xs">
      {/* Phones (issue 18): the text above a full-width button; wider screens: side by side. */}
      <Flex
        direction={{ base: 'column', sm: 'row' }}
        justify="space-between"
        align={{ base: 'stretch', sm: 'center' }}
        gap="sm"
      >
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" color="red" size={38} radius="md">
            <Icon name="shield" size={20} />
          </ThemeIcon>
          <div>
            <Title order={2} fz="h5">
              Worried about a student?
            </Title>
            <Text size="sm" c="dimmed">
              Report a safeguarding concern now. The safeguarding leads are alerted at once.
            </Text>
          </div>
        </Group>
        <Button color="red" variant="light" onClick={() => setOpen(true)} style={{ flexShrink: 0 }}>
          Report a concern
        </Button>
      </Flex>
      {open && (
        <Suspense fallback={null}>
          <ReportIncidentModal
            opened
            onClose={(id) => {
              setOpen(false);
              if (id) void navigate(`/safeguarding-incidents/${id}`);
            }}
          />
        </Suspense>
      )}
    </Card>
  );
}
