import {
  scheduleStream,
  type ScheduleConflict,
  type ScheduleEvent,
  type ScheduleRule,
} from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';
import { isLocalDate, isLocalTime, isTimeZone } from '../core/time/time.js';

/** A schedule: a weekly rule of one programme's group (decision 0053). */
export interface ScheduleState {
  exists: boolean;
  programmeId: string;
  customerId: string;
  rule: ScheduleRule | null;
  exceptions: { localDate: string; action: 'skip' | 'move'; newLocalStart: string | null }[];
  conflicts: ScheduleConflict[];
}

export type ScheduleCommand =
  | {
      type: 'CreateSchedule';
      scheduleId: string;
      programmeId: string;
      customerId: string;
      rule: ScheduleRule;
    }
  | { type: 'ChangeSchedule'; scheduleId: string; rule: ScheduleRule }
  | {
      type: 'AddScheduleException';
      scheduleId: string;
      localDate: string;
      action: 'skip' | 'move';
      newLocalStart: string | null;
    }
  | { type: 'RecordScheduleConflicts'; scheduleId: string; conflicts: ScheduleConflict[] };

export const initialScheduleState = (): ScheduleState => ({
  exists: false,
  programmeId: '',
  customerId: '',
  rule: null,
  exceptions: [],
  conflicts: [],
});

const ruleOf = (d: ScheduleRule): ScheduleRule => ({
  groupId: d.groupId,
  teacherId: d.teacherId,
  timezone: d.timezone,
  weekdays: [...d.weekdays],
  localStart: d.localStart,
  durationMinutes: d.durationMinutes,
  intervalWeeks: d.intervalWeeks,
  validFrom: d.validFrom,
  validUntil: d.validUntil,
});

export function evolveSchedule(state: ScheduleState, event: ScheduleEvent): ScheduleState {
  switch (event.type) {
    case 'ScheduleCreated':
      return {
        ...state,
        exists: true,
        programmeId: event.data.programmeId,
        customerId: event.data.customerId,
        rule: ruleOf(event.data),
      };
    case 'ScheduleChanged':
      return { ...state, rule: ruleOf(event.data) };
    case 'ScheduleExceptionAdded':
      return {
        ...state,
        exceptions: [
          ...state.exceptions.filter((e) => e.localDate !== event.data.localDate),
          {
            localDate: event.data.localDate,
            action: event.data.action,
            newLocalStart: event.data.newLocalStart,
          },
        ],
      };
    case 'ScheduleConflictsRecorded':
      return { ...state, conflicts: event.data.conflicts };
  }
}

/** Shortest and longest lesson a schedule may give (a lesson longer than 12 hours is refused). */
export const MIN_DURATION = 5;
export const MAX_DURATION = 720;

/** Checks a rule; throws `invalid` naming the field. */
export function checkRule(rule: ScheduleRule): void {
  if (!Array.isArray(rule.weekdays) || rule.weekdays.length === 0)
    throw new DomainError('invalid', 'weekdays: choose at least one day');
  if (
    rule.weekdays.some((d) => !Number.isInteger(d) || d < 1 || d > 7) ||
    new Set(rule.weekdays).size !== rule.weekdays.length
  )
    throw new DomainError('invalid', 'weekdays: days are distinct numbers from 1 (Monday) to 7 (Sunday)');
  if (!isLocalTime(rule.localStart)) throw new DomainError('invalid', 'local_start: must be a time HH:mm');
  if (
    !Number.isInteger(rule.durationMinutes) ||
    rule.durationMinutes < MIN_DURATION ||
    rule.durationMinutes > MAX_DURATION
  )
    throw new DomainError(
      'invalid',
      `duration_minutes: must be from ${MIN_DURATION} to ${MAX_DURATION} minutes`,
    );
  if (!Number.isInteger(rule.intervalWeeks) || rule.intervalWeeks < 1 || rule.intervalWeeks > 52)
    throw new DomainError('invalid', 'interval_weeks: must be from 1 to 52');
  if (!isTimeZone(rule.timezone)) throw new DomainError('invalid', 'timezone: unknown time zone');
  if (!isLocalDate(rule.validFrom)) throw new DomainError('invalid', 'valid_from: must be a date yyyy-MM-dd');
  if (rule.validUntil !== null) {
    if (!isLocalDate(rule.validUntil))
      throw new DomainError('invalid', 'valid_until: must be a date yyyy-MM-dd');
    if (rule.validUntil < rule.validFrom)
      throw new DomainError('invalid', 'valid_until: must not be before valid_from');
  }
}

const sameRule = (a: ScheduleRule, b: ScheduleRule) =>
  JSON.stringify(ruleOf(a)) === JSON.stringify(ruleOf(b));

export function decideSchedule(command: ScheduleCommand, state: ScheduleState): ScheduleEvent[] {
  switch (command.type) {
    case 'CreateSchedule':
      if (state.exists) throw new DomainError('conflict', 'Schedule already exists');
      checkRule(command.rule);
      return [
        {
          type: 'ScheduleCreated',
          data: {
            scheduleId: command.scheduleId,
            programmeId: command.programmeId,
            customerId: command.customerId,
            ...ruleOf(command.rule),
          },
        },
      ];
    case 'ChangeSchedule': {
      if (!state.exists || !state.rule) throw new DomainError('not_found', 'Schedule not found');
      checkRule(command.rule);
      if (sameRule(state.rule, command.rule)) return [];
      return [
        {
          type: 'ScheduleChanged',
          data: {
            scheduleId: command.scheduleId,
            customerId: state.customerId,
            previousTeacherId: state.rule.teacherId !== command.rule.teacherId ? state.rule.teacherId : null,
            ...ruleOf(command.rule),
          },
        },
      ];
    }
    case 'AddScheduleException': {
      if (!state.exists || !state.rule) throw new DomainError('not_found', 'Schedule not found');
      if (!isLocalDate(command.localDate))
        throw new DomainError('invalid', 'local_date: must be a date yyyy-MM-dd');
      if (command.action === 'move') {
        if (!command.newLocalStart || !isLocalTime(command.newLocalStart))
          throw new DomainError('invalid', 'new_local_start: a move needs the new start time HH:mm');
      } else if (command.action !== 'skip') throw new DomainError('invalid', 'action: must be skip or move');
      const newLocalStart = command.action === 'move' ? command.newLocalStart : null;
      const current = state.exceptions.find((e) => e.localDate === command.localDate);
      if (current && current.action === command.action && current.newLocalStart === newLocalStart) return [];
      return [
        {
          type: 'ScheduleExceptionAdded',
          data: {
            scheduleId: command.scheduleId,
            customerId: state.customerId,
            teacherId: state.rule.teacherId,
            localDate: command.localDate,
            action: command.action,
            newLocalStart,
          },
        },
      ];
    }
    case 'RecordScheduleConflicts': {
      if (!state.exists || !state.rule) throw new DomainError('not_found', 'Schedule not found');
      if (JSON.stringify(state.conflicts) === JSON.stringify(command.conflicts)) return [];
      return [
        {
          type: 'ScheduleConflictsRecorded',
          data: {
            scheduleId: command.scheduleId,
            customerId: state.customerId,
            teacherId: state.rule.teacherId,
            conflicts: command.conflicts,
          },
        },
      ];
    }
  }
}

export const scheduleAggregate: Aggregate<ScheduleState, ScheduleCommand, ScheduleEvent> = {
  stream: scheduleStream,
  idOf: (command) => command.scheduleId,
  initialState: initialScheduleState,
  evolve: evolveSchedule,
  decide: decideSchedule,
};
