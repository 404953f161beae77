import { ERASED, parseStream, type PersonalDataRule } from '@portal/projections';
import type {
  AppendOptions,
  AppendResult,
  EventData,
  EventStore,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeToAllOptions,
  Subscription,
} from '../event-store/event-store.js';
import {
  PersonalDataVault,
  decryptValue,
  encryptValue,
  isEnvelope,
  type SubjectKey,
} from './personal-data-vault.js';

type Json = Record<string, unknown>;

function getPath(data: unknown, path: string[]): { parent: Json; field: string } | null {
  let node: unknown = data;
  for (const segment of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return null;
    node = (node as Json)[segment];
  }
  if (node === null || typeof node !== 'object') return null;
  return { parent: node as Json, field: path[path.length - 1]! };
}

/** A deep copy with `fn` applied to each personal field that is present (the input is not mutated). */
function mapFields(data: unknown, paths: readonly string[], fn: (value: unknown) => unknown): unknown {
  const copy = structuredClone(data);
  for (const path of paths) {
    const at = getPath(copy, path.split('.'));
    if (!at || !(at.field in at.parent)) continue;
    at.parent[at.field] = fn(at.parent[at.field]);
  }
  return copy;
}

/**
 * The EventStore decorator that keeps personal data encrypted at rest (decision 0014). On append,
 * the fields a rule marks are encrypted with the subject's key (AES-256-GCM, the subject id as
 * additional data); every read path (readStream, readAll, subscribeToAll) decrypts them, so deciders,
 * projections, audit and live replay see plaintext — or "[erased]" once the key is destroyed. Events
 * written before encryption existed (plaintext) read unchanged.
 */
export class ProtectingEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    readonly vault: PersonalDataVault,
    private readonly rules: readonly PersonalDataRule[],
  ) {}

  get kind() {
    return this.inner.kind;
  }

  /** The rule for a stream and its subject (the stream's id), or null for streams without personal data. */
  private ruleFor(stream: string): { rule: PersonalDataRule; subject: string } | null {
    const parsed = parseStream(stream);
    if (!parsed?.id) return null;
    const rule = this.rules.find((r) => r.stream === parsed.kind);
    return rule ? { rule, subject: parsed.id } : null;
  }

  async append(stream: string, events: EventData[], options: AppendOptions): Promise<AppendResult> {
    const found = this.ruleFor(stream);
    if (!found) return this.inner.append(stream, events, options);
    const { rule, subject } = found;
    const personal = events.some((e) => rule.fields[e.type]?.length);
    const key = personal ? await this.vault.keyForWrite(subject) : null;
    const protectedEvents = events.map((e) => {
      const paths = rule.fields[e.type];
      if (!paths?.length) return e;
      const data = mapFields(e.data, paths, (value) => {
        if (typeof value !== 'string') return value;
        // A subject whose key is destroyed gets no new personal data: it is dropped, not stored.
        return key ? encryptValue(key, subject, value) : ERASED;
      });
      return { ...e, data };
    });
    const result = await this.inner.append(stream, protectedEvents, options);
    if (events.some((e) => e.type === rule.erasedEventType)) this.vault.markErased(subject);
    return result;
  }

  /** Decrypts a batch: erase events in it are noted first, then one key lookup for all subjects. */
  private async reveal(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    const subjects = new Set<string>();
    for (const e of events) {
      const found = this.ruleFor(e.stream);
      if (!found) continue;
      const { rule, subject } = found;
      if (e.type === rule.erasedEventType) this.vault.markErased(subject);
      if (rule.fields[e.type]?.length) subjects.add(subject);
    }
    if (subjects.size === 0) return events;
    const keys = await this.vault.keysFor(subjects);
    return events.map((e) => this.revealOne(e, keys));
  }

  private revealOne(e: RecordedEvent, keys: Map<string, SubjectKey>): RecordedEvent {
    const found = this.ruleFor(e.stream);
    const paths = found?.rule.fields[e.type];
    if (!found || !paths?.length) return e;
    const { subject } = found;
    const key = keys.get(subject);
    let touched = false;
    const data = mapFields(e.data, paths, (value) => {
      if (!isEnvelope(value)) {
        // Plaintext written before encryption: unreadable too once the subject is erased.
        if (key === null && typeof value === 'string') {
          touched = true;
          return ERASED;
        }
        return value;
      }
      touched = true;
      if (!key) return ERASED;
      try {
        return decryptValue(key, subject, value);
      } catch {
        return ERASED;
      }
    });
    return touched ? { ...e, data } : e;
  }

  async readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.reveal(await this.inner.readStream(stream, options));
  }

  async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.reveal(await this.inner.readAll(options));
  }

  subscribeToAll(options?: SubscribeToAllOptions): Subscription {
    const inner = this.inner.subscribeToAll(options);
    const reveal = (e: RecordedEvent) => this.reveal([e]);
    return {
      close: () => inner.close(),
      async *[Symbol.asyncIterator]() {
        for await (const e of inner) yield (await reveal(e))[0]!;
      },
    };
  }

  headPosition(): Promise<bigint> {
    return this.inner.headPosition();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
