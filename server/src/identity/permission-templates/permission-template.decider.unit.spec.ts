import { describe, expect, it } from '@jest/globals';
import { DomainError, type ErrorKind } from '../../platform/domain/domain-error.js';
import type { PermissionTemplateEvent } from '@portal/projections';
import {
  decidePermissionTemplate,
  foldPermissionTemplate,
  type PermissionTemplateCommand,
} from './permission-template.decider.js';

const ID = '11111111-1111-4111-8111-111111111111';
const SEE = 'PARTNER_CAN_SEE_ATTENDANCE';
const JOIN = 'PARTNER_CAN_JOIN_LESSONS';
const created: PermissionTemplateEvent = {
  type: 'PermissionTemplateCreated',
  data: { templateId: ID, name: 'Parents', permissions: [SEE] },
};
const deleted: PermissionTemplateEvent = { type: 'PermissionTemplateDeleted', data: { templateId: ID } };

const rows: Array<{
  name: string;
  given: PermissionTemplateEvent[];
  when: PermissionTemplateCommand;
  then: PermissionTemplateEvent[] | [ErrorKind, string];
}> = [
  {
    name: 'creating records the name and the permissions, each once',
    given: [],
    when: { type: 'CreatePermissionTemplate', templateId: ID, name: 'Parents', permissions: [SEE, SEE] },
    then: [created],
  },
  {
    name: 'creating twice is a conflict',
    given: [created],
    when: { type: 'CreatePermissionTemplate', templateId: ID, name: 'Parents', permissions: [] },
    then: ['conflict', 'Permission template already exists'],
  },
  {
    name: 'a marker or unknown permission is refused, naming the field',
    given: [],
    when: {
      type: 'CreatePermissionTemplate',
      templateId: ID,
      name: 'X',
      permissions: [SEE, 'USER_IS_ADMIN', 'NOPE'],
    },
    then: ['invalid', 'permissions: not assignable: USER_IS_ADMIN, NOPE'],
  },
  {
    name: 'a separately granted permission is not assignable',
    given: [],
    when: {
      type: 'CreatePermissionTemplate',
      templateId: ID,
      name: 'X',
      permissions: ['PARTNER_CAN_SET_ABSENCE_REASON'],
    },
    then: ['invalid', 'permissions: not assignable: PARTNER_CAN_SET_ABSENCE_REASON'],
  },
  {
    name: 'renaming records the new name',
    given: [created],
    when: { type: 'UpdatePermissionTemplate', templateId: ID, name: 'Carers' },
    then: [{ type: 'PermissionTemplateRenamed', data: { templateId: ID, name: 'Carers' } }],
  },
  {
    name: 'changing permissions records what was added and removed',
    given: [created],
    when: { type: 'UpdatePermissionTemplate', templateId: ID, permissions: [JOIN] },
    then: [
      {
        type: 'PermissionTemplatePermissionsChanged',
        data: { templateId: ID, permissions: [JOIN], added: [JOIN], removed: [SEE] },
      },
    ],
  },
  {
    name: 'an update that changes nothing writes nothing',
    given: [created],
    when: { type: 'UpdatePermissionTemplate', templateId: ID, name: 'Parents', permissions: [SEE] },
    then: [],
  },
  {
    name: 'an update with an unassignable permission is refused',
    given: [created],
    when: { type: 'UpdatePermissionTemplate', templateId: ID, permissions: ['CAN_IMPERSONATE'] },
    then: ['invalid', 'permissions: not assignable: CAN_IMPERSONATE'],
  },
  {
    name: 'updating an unknown template is not found',
    given: [],
    when: { type: 'UpdatePermissionTemplate', templateId: ID, name: 'X' },
    then: ['not_found', 'Permission template not found'],
  },
  {
    name: 'deleting records it',
    given: [created],
    when: { type: 'DeletePermissionTemplate', templateId: ID },
    then: [deleted],
  },
  {
    name: 'a deleted template cannot be deleted again',
    given: [created, deleted],
    when: { type: 'DeletePermissionTemplate', templateId: ID },
    then: ['not_found', 'Permission template not found'],
  },
  {
    name: 'a deleted template cannot be updated',
    given: [created, deleted],
    when: { type: 'UpdatePermissionTemplate', templateId: ID, name: 'Back' },
    then: ['not_found', 'Permission template not found'],
  },
  {
    name: 'a deleted template cannot be created again under the same id',
    given: [created, deleted],
    when: { type: 'CreatePermissionTemplate', templateId: ID, name: 'Back', permissions: [] },
    then: ['conflict', 'Permission template already exists'],
  },
];

describe('permission template decider', () => {
  it.each(rows)('$name', ({ given, when, then }) => {
    const state = foldPermissionTemplate(given);
    if (typeof then[0] === 'string') {
      const [kind, detail] = then as [ErrorKind, string];
      let error: unknown;
      try {
        decidePermissionTemplate(when, state);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ kind, detail });
    } else {
      expect(decidePermissionTemplate(when, state)).toEqual(then);
    }
  });
});
