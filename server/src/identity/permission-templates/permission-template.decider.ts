import { permissionTemplateStream, type PermissionTemplateEvent } from '@portal/projections';
import { isAssignablePartnerPermission } from '../permissions/permission-catalogue.js';
import { DomainError, type ErrorKind } from '../../platform/domain/domain-error.js';
import type { Aggregate } from '../../platform/event-store/aggregate.js';

/** A permission template as the decider needs it, folded from its stream. */
export interface PermissionTemplateState {
  status: 'none' | 'active' | 'deleted';
  name: string;
  permissions: string[];
}

export type PermissionTemplateCommand =
  | { type: 'CreatePermissionTemplate'; templateId: string; name: string; permissions: string[] }
  | { type: 'UpdatePermissionTemplate'; templateId: string; name?: string; permissions?: string[] }
  | { type: 'DeletePermissionTemplate'; templateId: string };

export const initialPermissionTemplateState: PermissionTemplateState = {
  status: 'none',
  name: '',
  permissions: [],
};

export function evolvePermissionTemplate(
  state: PermissionTemplateState,
  event: PermissionTemplateEvent,
): PermissionTemplateState {
  switch (event.type) {
    case 'PermissionTemplateCreated':
      return { status: 'active', name: event.data.name, permissions: [...event.data.permissions] };
    case 'PermissionTemplateRenamed':
      return { ...state, name: event.data.name };
    case 'PermissionTemplatePermissionsChanged':
      return { ...state, permissions: [...event.data.permissions] };
    case 'PermissionTemplateDeleted':
      return { ...state, status: 'deleted' };
  }
}

export const foldPermissionTemplate = (events: PermissionTemplateEvent[]) =>
  events.reduce(evolvePermissionTemplate, initialPermissionTemplateState);

const fail = (kind: ErrorKind, detail: string): never => {
  throw new DomainError(kind, detail);
};

/** Only assignable partner permissions (spec §6), each once, in the order given. */
function validPermissions(permissions: string[]): string[] {
  const unknown = permissions.filter((p) => !isAssignablePartnerPermission(p));
  if (unknown.length > 0) fail('invalid', `permissions: not assignable: ${[...new Set(unknown)].join(', ')}`);
  return [...new Set(permissions)];
}

/**
 * Business rules of a permission template: permissions must be assignable; a deleted template is gone
 * (404) for good; an update that changes nothing writes nothing.
 */
export function decidePermissionTemplate(
  command: PermissionTemplateCommand,
  state: PermissionTemplateState,
): PermissionTemplateEvent[] {
  const templateId = command.templateId;
  if (command.type === 'CreatePermissionTemplate') {
    if (state.status !== 'none') fail('conflict', 'Permission template already exists');
    return [
      {
        type: 'PermissionTemplateCreated',
        data: { templateId, name: command.name, permissions: validPermissions(command.permissions) },
      },
    ];
  }
  if (state.status !== 'active') fail('not_found', 'Permission template not found');
  if (command.type === 'DeletePermissionTemplate')
    return [{ type: 'PermissionTemplateDeleted', data: { templateId } }];
  const events: PermissionTemplateEvent[] = [];
  const permissions = command.permissions === undefined ? undefined : validPermissions(command.permissions);
  if (command.name !== undefined && command.name !== state.name)
    events.push({ type: 'PermissionTemplateRenamed', data: { templateId, name: command.name } });
  if (permissions !== undefined) {
    const before = new Set(state.permissions);
    const after = new Set(permissions);
    const added = permissions.filter((p) => !before.has(p));
    const removed = state.permissions.filter((p) => !after.has(p));
    if (added.length > 0 || removed.length > 0)
      events.push({
        type: 'PermissionTemplatePermissionsChanged',
        data: { templateId, permissions, added, removed },
      });
  }
  return events;
}

/** The permissionTemplate aggregate: its stream, state and rules, for `Commands.run`. */
export const permissionTemplateAggregate: Aggregate<
  PermissionTemplateState,
  PermissionTemplateCommand,
  PermissionTemplateEvent
> = {
  stream: permissionTemplateStream,
  idOf: (command) => command.templateId,
  initialState: () => initialPermissionTemplateState,
  evolve: evolvePermissionTemplate,
  decide: decidePermissionTemplate,
};
