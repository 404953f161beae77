import {
  ERASED,
  parseStream,
  PERSON_FIELD_RULES,
  PERSONAL_DATA_RULES,
  type PersonalDataRule,
  type PersonFieldRule,
} from '@portal/projections';
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
  BUNDLED,
  PersonalDataVault,
  decryptValue,
  encryptValue,
  isEnvelope,
  type SubjectKey,
} from './personal-data-vault.js';
import { DecryptionWorker, UNREADABLE, type DecryptRequest } from './decryption-worker.js';

type Json = Record<string, unknown>;

function getPath(data: unknown, path: string[]): { parent: Json; field: string } | null {
  let node: unknown = data;
  for (let i = 0; i < path.length - 1; i++) {
    if (node === null || typeof node !== 'object') return null;
    node = (node as Json)[path[i]!];
  }
  if (node === null || typeof node !== 'object') return null;
  return { parent: node as Json, field: path[path.length - 1]! };
}

/** `path` split at its dots, once per path text (the rules' few paths, read for every event). */
const segmentsOf = new Map<string, string[]>();
const segments = (path: string): string[] => {
  let split = segmentsOf.get(path);
  if (!split) segmentsOf.set(path, (split = path.split('.')));
  return split;
};

/** The value at a dotted `path` of `data` (undefined when absent). */
const valueAt = (data: unknown, path: string): unknown => {
  const at = getPath(data, segments(path));
  return at?.parent[at.field];
};

/**
 * `data` with `fn` applied to each personal field that is present; the input is not mutated. Only the
 * objects on the way to a changed field are copied (shallowly); the rest is shared with the input,
 * which no reader changes. (A deep copy of every event cost a tenth of a rebuild's reading.)
 */
function mapFields(
  data: unknown,
  paths: readonly string[],
  fn: (value: unknown, path: string) => unknown,
): unknown {
  let root = data;
  /** The copies made so far, so two fields under one object share its copy. */
  const copies = new Set<unknown>();
  const copied = (node: Json): Json => {
    if (copies.has(node)) return node;
    const copy = (Array.isArray(node) ? [...(node as unknown[])] : { ...node }) as Json;
    copies.add(copy);
    return copy;
  };
  for (const path of paths) {
    const keys = segments(path);
    const found = getPath(root, keys);
    if (!found || !(found.field in found.parent)) continue;
    // Copy the objects from the root down to the field's parent, then set the field on the copy.
    root = copied(root as Json);
    let node = root as Json;
    for (const key of keys.slice(0, -1)) node = node[key] = copied(node[key] as Json);
    node[found.field] = fn(found.parent[found.field], path);
  }
  return root;
}

/** A read with at least this many encrypted values decrypts them on the worker thread (decision 0087). */
export const OFF_THREAD_FROM = 256;

export interface ProtectingOptions {
  /** How many encrypted values a read needs before they go to the worker thread (Infinity: never). */
  offThreadFrom?: number;
  /** The worker thread to decrypt on (tests pass one that counts its work); closed with the store. */
  worker?: DecryptionWorker;
}

/** Fields of an event encrypted under one subject's key. */
interface PersonalPart {
  paths: readonly string[];
  subject: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Values a batch decrypted beforehand, by subject and envelope (`openedKey`). An envelope is unique (a
 * random IV per value); the subject is part of the key so that a value copied into another subject's
 * event is still checked against that subject, as decrypting it here would.
 */
type Opened = ReadonlyMap<string, unknown>;
const openedKey = (subject: string, envelope: string) => `${subject} ${envelope}`;

/** What an envelope of one event part opens to: the values of its fields by path (decision 0098). */
type Bundle = Record<string, unknown>;
const isBundle = (value: unknown): value is Bundle =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `data` with the string fields at `paths` encrypted under the subject's key; null (erased): stored
 * as "[erased]". One field alone gets an envelope of its own value. Two or more share one envelope
 * (decision 0098): the first of them in `paths` holds it, and its plaintext maps each of their paths
 * to its value; the others hold `BUNDLED`. Non-string values (null, absent) stay as they are.
 */
function sealFields(data: unknown, paths: readonly string[], subject: string, key: Buffer | null): unknown {
  if (!key) return mapFields(data, paths, (value) => (typeof value === 'string' ? ERASED : value));
  const bundle: Record<string, string> = {};
  const present: string[] = [];
  for (const path of paths) {
    const value = valueAt(data, path);
    if (typeof value === 'string') {
      present.push(path);
      bundle[path] = value;
    }
  }
  if (present.length === 0) return data;
  if (present.length === 1) return mapFields(data, present, (value) => encryptValue(key, subject, value));
  const envelope = encryptValue(key, subject, bundle);
  return mapFields(data, present, (_value, path) => (path === present[0] ? envelope : BUNDLED));
}

/**
 * The fields decrypted with the subject's key, "[erased]" once it is destroyed; the same object when
 * untouched. A value found in `opened` was decrypted already (on the worker); others are decrypted here.
 * A field that holds `BUNDLED` takes its value from the part's shared envelope (decision 0098); a
 * bundle's value counts only where such a field stands, and a field whose value it lacks (or cannot
 * be opened) reads "[erased]", as a value that does not open does.
 */
function revealFields(
  data: unknown,
  paths: readonly string[],
  subject: string,
  key: SubjectKey,
  opened: Opened | null,
): unknown {
  const open = (envelope: string): unknown => {
    const done = opened?.get(openedKey(subject, envelope));
    if (done !== undefined) return done;
    try {
      return decryptValue(key!, subject, envelope);
    } catch {
      return UNREADABLE;
    }
  };
  /** The part's bundle and the envelope it came from; undefined until looked for, null: none opens. */
  let bundle: { envelope: string; values: Bundle } | null | undefined;
  const bundled = (path: string): unknown => {
    if (bundle === undefined) {
      bundle = null;
      for (const p of paths) {
        const value = valueAt(data, p);
        const plain = isEnvelope(value) ? open(value) : undefined;
        if (isBundle(plain)) {
          bundle = { envelope: value as string, values: plain };
          break;
        }
      }
    }
    const value = bundle?.values[path];
    return typeof value === 'string' ? value : ERASED;
  };
  let touched = false;
  const revealed = mapFields(data, paths, (value, path) => {
    if (value === BUNDLED) {
      touched = true;
      return key ? bundled(path) : ERASED;
    }
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
    if (bundle && bundle.envelope === value) return bundled(path);
    const plain = open(value);
    if (plain === UNREADABLE) return ERASED;
    if (!isBundle(plain)) return plain;
    bundle = { envelope: value, values: plain };
    return bundled(path);
  });
  return touched ? revealed : data;
}

/**
 * The EventStore decorator that keeps personal data encrypted at rest (decision 0014). On append,
 * the fields a rule marks are encrypted with the subject's key (AES-256-GCM, the subject id as
 * additional data); every read path (readStream, readAll, subscribeToAll) decrypts them, so deciders,
 * projections, audit and live replay see plaintext — or "[erased]" once the key is destroyed. Events
 * written before encryption existed (plaintext) read unchanged.
 */
export class ProtectingEventStore implements EventStore {
  private readonly worker: DecryptionWorker;
  private readonly offThreadFrom: number;

  constructor(
    private readonly inner: EventStore,
    readonly vault: PersonalDataVault,
    private readonly rules: readonly PersonalDataRule[],
    private readonly personFields: Readonly<Record<string, readonly PersonFieldRule[]>> = {},
    options: ProtectingOptions = {},
  ) {
    this.offThreadFrom = options.offThreadFrom ?? OFF_THREAD_FROM;
    this.worker = options.worker ?? new DecryptionWorker();
  }

  /** The person ids named in an event's person fields (user ids only: `system` is no one). */
  private personSubjects(e: { type: string; data: unknown }): { rule: PersonFieldRule; subject: string }[] {
    const rules = this.personFields[e.type];
    if (!rules) return [];
    const found: { rule: PersonFieldRule; subject: string }[] = [];
    for (const rule of rules) {
      const subject = valueAt(e.data, rule.subject);
      if (typeof subject === 'string' && UUID.test(subject)) found.push({ rule, subject });
    }
    return found;
  }

  /** Encrypts the person fields of new events with each named person's key (decision 0061). */
  private async protectPersons(events: EventData[]): Promise<EventData[]> {
    if (!events.some((e) => this.personFields[e.type])) return events;
    const out: EventData[] = [];
    for (const e of events) {
      let data = e.data;
      for (const { rule, subject } of this.personSubjects(e))
        data = sealFields(data, rule.fields, subject, await this.vault.keyForWrite(subject));
      out.push(data === e.data ? e : { ...e, data });
    }
    return out;
  }

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

  async append(stream: string, given: EventData[], options: AppendOptions): Promise<AppendResult> {
    const events = await this.protectPersons(given);
    const found = this.ruleFor(stream);
    if (!found) return this.inner.append(stream, events, options);
    const { rule, subject } = found;
    const personal = events.some((e) => rule.fields[e.type]?.length);
    const key = personal ? await this.vault.keyForWrite(subject) : null;
    const protectedEvents = events.map((e) => {
      const paths = rule.fields[e.type];
      if (!paths?.length) return e;
      // A subject whose key is destroyed gets no new personal data: it is dropped, not stored.
      return { ...e, data: sealFields(e.data, paths, subject, key) };
    });
    const result = await this.inner.append(stream, protectedEvents, options);
    if (events.some((e) => e.type === rule.erasedEventType)) this.vault.markErased(subject);
    return result;
  }

  /** Decrypts a batch: erase events in it are noted first, then one key lookup for all subjects. */
  private async reveal(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    const subjects = new Set<string>();
    // What of each event is personal, worked out once per event (streams parsed, person ids found).
    const personal = events.map((e) => {
      const found = this.ruleFor(e.stream);
      if (found && e.type === found.rule.erasedEventType) this.vault.markErased(found.subject);
      const parts = this.personalParts(e, found);
      for (const part of parts) subjects.add(part.subject);
      return parts;
    });
    if (subjects.size === 0) return events;
    const keys = await this.vault.keysFor(subjects);
    const opened = await this.openOffThread(events, personal, keys);
    return events.map((e, i) => {
      let data = e.data;
      for (const { paths, subject } of personal[i]!)
        data = revealFields(data, paths, subject, keys.get(subject), opened);
      return data === e.data ? e : { ...e, data };
    });
  }

  /**
   * The personal fields of an event, each with the subject whose key encrypts it: the fields its
   * stream's rule marks for its type (the stream's subject), then its person fields (decision 0061).
   */
  private personalParts(
    e: RecordedEvent,
    found: { rule: PersonalDataRule; subject: string } | null,
  ): PersonalPart[] {
    const parts: PersonalPart[] = [];
    const paths = found?.rule.fields[e.type];
    if (found && paths?.length) parts.push({ paths, subject: found.subject });
    for (const { rule, subject } of this.personSubjects(e)) parts.push({ paths: rule.fields, subject });
    return parts;
  }

  /**
   * A large read's encrypted values, decrypted on the worker thread while this one goes on (a
   * rebuild applies the page before meanwhile); null for a small read, which is quicker decrypted here,
   * or when the worker failed (then every value is decrypted here, as for a small read).
   */
  private async openOffThread(
    events: RecordedEvent[],
    personal: PersonalPart[][],
    keys: Map<string, SubjectKey>,
  ): Promise<Opened | null> {
    // A live event or a short stream cannot reach the threshold: no second walk of its fields.
    let fields = 0;
    for (const parts of personal) for (const part of parts) fields += part.paths.length;
    if (fields < this.offThreadFrom) return null;
    const requests: DecryptRequest[] = [];
    for (let i = 0; i < events.length; i++) {
      for (const { paths, subject } of personal[i]!) {
        const key = keys.get(subject);
        if (!key) continue;
        for (const path of paths) {
          const value = valueAt(events[i]!.data, path);
          if (isEnvelope(value)) requests.push({ key, subject, envelope: value });
        }
      }
    }
    if (requests.length < this.offThreadFrom) return null;
    try {
      const values = await this.worker.decrypt(requests);
      return new Map(requests.map((r, i) => [openedKey(r.subject, r.envelope), values[i]]));
    } catch {
      return null;
    }
  }

  async readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.reveal(await this.inner.readStream(stream, options));
  }

  async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    const events = await this.inner.readAll(options);
    if (!options?.sealed) return this.reveal(events);
    // The reader needs no personal field (decision 0089): they stay encrypted. Erase events are
    // still noted, as every read notes them.
    for (const e of events) {
      const found = this.ruleFor(e.stream);
      if (found && e.type === found.rule.erasedEventType) this.vault.markErased(found.subject);
    }
    return events;
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

  async close(): Promise<void> {
    await this.worker.close();
    await this.inner.close();
  }
}

/**
 * The store as the portal runs it: every stream rule (decision 0014) and every person-field rule
 * (decision 0061). The server, the rebuild CLI, the tests that compare a rebuild with the live read
 * models and the benchmarks all open it here, so none of them reads the log differently.
 */
export function portalProtectedStore(
  inner: EventStore,
  vault: PersonalDataVault,
  options?: ProtectingOptions,
): ProtectingEventStore {
  return new ProtectingEventStore(inner, vault, PERSONAL_DATA_RULES, PERSON_FIELD_RULES, options);
}
