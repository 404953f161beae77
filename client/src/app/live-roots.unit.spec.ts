import { describe, expect, it } from '@jest/globals';
import { customers } from '../features/customers/api';
import { networks } from '../features/networks/api';
import { onePageProfiles } from '../features/one-page-profiles/api';
import { templates } from '../features/permission-templates/api';
import { queryRootFor } from '@portal/projections/streams';

// A live message invalidates `[queryRootFor(stream)]`: each resource's keys must sit under that root,
// or its screens stop following changes made elsewhere.
describe('resource roots follow live messages', () => {
  it.each([
    ['network-3f2a', networks.root],
    ['permission-template-3f2a', templates.root],
    ['customer-3f2a', customers.root],
    ['one-page-profile-42', onePageProfiles.root],
  ])('%s refreshes the %s queries', (stream, root) => {
    expect(queryRootFor(stream)).toBe(root);
  });
});
