import { describe, expect, it } from '@jest/globals';
import { STREAMS, type StreamKind } from '@portal/projections/streams';
import { customers } from '../features/customers/api';
import { networks } from '../features/networks/api';
import { onePageProfiles } from '../features/one-page-profiles/api';
import { templates } from '../features/permission-templates/api';
import * as features from './features';

// A live message invalidates `[queryRootFor(stream)]`: each resource's keys must sit under that root,
// or its screens stop following changes made elsewhere.
describe('resource roots follow live messages', () => {
  it.each([
    ['network', networks.root],
    ['permissionTemplate', templates.root],
    ['customer', customers.root],
    ['onePageProfile', onePageProfiles.root],
  ] as [StreamKind, string][])('%s streams refresh the %s queries', (kind, root) => {
    expect(STREAMS[kind].queryRoot).toBe(root);
  });

  const declared = Object.entries(features).flatMap(([area, feature]) =>
    Object.entries(feature.liveRoots ?? {}).map(([kind, root]) => [area, kind, root] as const),
  );
  it.each(declared)('%s: %s streams refresh its %s queries', (_area, kind, root) => {
    expect(STREAMS[kind as StreamKind].queryRoot).toBe(root);
  });

  it('every resource declares its live root in its feature', () => {
    const roots = new Set(declared.map(([, , root]) => root));
    for (const root of [networks.root, templates.root, customers.root, onePageProfiles.root])
      expect(roots).toContain(root);
  });
});
