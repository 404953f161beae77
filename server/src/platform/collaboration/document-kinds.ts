import { Injectable } from '@nestjs/common';
import type { Actor } from '../auth/request-context.js';

/**
 * A kind of collaborative document (`half-term-report`, `safeguarding-incident`, ...). Domain modules
 * register their kinds at start; the collaboration server asks them who may read and who may write.
 * A user who may read but not write gets a read-only connection.
 */
export interface DocumentKind {
  kind: string;
  canRead(actor: Actor, id: string): boolean | Promise<boolean>;
  canWrite(actor: Actor, id: string): boolean | Promise<boolean>;
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
}

/** A kind for tests: any signed-in user reads, users with `writePermission` write. */
export function testDocumentKind(writePermission = 'USER_IS_ADMIN'): DocumentKind {
  return {
    kind: 'test',
    canRead: () => true,
    canWrite: (actor) => actor.permissions.has(writePermission),
  };
}
