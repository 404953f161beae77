import { Checkbox, SimpleGrid, Stack, Text } from '@mantine/core';
import type { PermissionInfo } from '../permissions/api';

export interface ChecklistSection {
  title: string;
  permissions: readonly PermissionInfo[];
}

/** Checkbox lists of permissions, one fieldset per section (view / actions / internal), labelled. */
export function PermissionChecklist({
  sections,
  chosen,
  onToggle,
  disabled,
}: {
  sections: ChecklistSection[];
  chosen: ReadonlySet<string>;
  onToggle: (permission: string, on: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <Stack gap="md">
      {sections.map((section) => (
        <fieldset key={section.title} style={{ border: 0, padding: 0, margin: 0 }}>
          <Text component="legend" fw={600} size="sm" mb={6}>
            {section.title}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing={6}>
            {section.permissions.map((permission) => (
              <Checkbox
                key={permission.name}
                label={permission.label}
                title={permission.name}
                checked={chosen.has(permission.name)}
                disabled={disabled}
                onChange={(e) => onToggle(permission.name, e.currentTarget.checked)}
              />
            ))}
          </SimpleGrid>
        </fieldset>
      ))}
    </Stack>
  );
}
