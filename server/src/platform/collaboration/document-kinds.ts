import { Injectable } from '@nestjs/common';
import type { Actor } from '../auth/request-context.js';
import type { RecordedEvent } from '../event-store/event-store.js';

/**
 * A kind of collaborative document (`half-term-report`, `safeguarding-incident`, ...). Domain modules
 * register their kinds at start; the collaboration server asks them who may read and who may write.
 * A user who may read but not write gets a read-only connection.
 */
export interface DocumentKind {
  kind: string;
  canRead(actor: Actor, id: string): boolean | Promise<boolean>;
  canWrite(actor: Actor, id: string): boolean | Promise<boolean>;
  /**
   * The id of the document whose access rules this event changes (null: none). After the event is in
   * the read models, every process re-checks the connections to that document.
   */
  accessChangedBy?(event: RecordedEvent): string | null;
}

@Injectable()
export class DocumentKinds {
  private readonly kinds = new Map<string, DocumentKind>();

  registerKind(kind: DocumentKind): void {
    if (!/^[a-z][a-z0-9-]{0,62}$/.test(kind.kind)) throw new Error(`Invalid document kind "${kind.kind}"`);
    if (this.kinds.has(kind.kind)) throw new Error(`Document kind "${kind.kind}" is already registered`);
    this.kinds.set(kind.kind, kind);
  }

  get(kind: string): DocumentKind | undefined {
    return this.kinds.get(kind);
  }

  unregisterKind(kind: string): void {
    this.kinds.delete(kind);
  }

  /** The documents (kind, id) whose access rules one of these events changes, each once. */
  accessChangedBy(events: readonly RecordedEvent[]): { kind: string; id: string }[] {
    const found = new Map<string, { kind: string; id: string }>();
    for (const event of events)
      for (const kind of this.kinds.values()) {
        const id = kind.accessChangedBy?.(event);
        if (id) found.set(`${kind.kind}:${id}`, { kind: kind.kind, id });
      }
    return [...found.values()];
  }
}

/** A kind for tests: any signed-in user reads, users with `writePermission` write. */
export function testDocumentKind(writePermission = 'USER_IS_ADMIN'): DocumentKind {
  return {
    kind: 'test',
    canRead: () => true,
    canWrite: (actor) => actor.permissions.has(writePermission),
  };
}
