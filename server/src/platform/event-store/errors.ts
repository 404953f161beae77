/** The one error every adapter throws when the expected revision does not match the stream. */
export class ConcurrencyError extends Error {
  override readonly name = 'ConcurrencyError';
  constructor(
    readonly stream: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`Stream "${stream}" was expected at revision ${expected} but is at ${actual}`);
  }
}

/** The store cannot be reached or answered in a way the adapter cannot interpret. */
export class EventStoreUnavailableError extends Error {
  override readonly name = 'EventStoreUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export function describeRevision(revision: bigint | null): string {
  return revision === null ? 'no_stream' : revision.toString();
}
