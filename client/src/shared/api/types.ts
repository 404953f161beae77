/**
 * Wire shapes every area shares, taken from the generated OpenAPI types (`schema.d.ts`, written by
 * `npm run openapi` from docs/openapi.json; decision 0048). Areas name their views with `ApiSchema`
 * instead of copying the server's shapes by hand.
 */
import type { components } from './schema';

type Schemas = components['schemas'];

/** A schema of the API document by name: `ApiSchema<'CustomerView'>`. */
export type ApiSchema<Name extends keyof Schemas> = Schemas[Name];

/** One page of a list endpoint: the server's `PageOf(View)` (every `*Page` schema) for any item type. */
export type Page<T> = Omit<Schemas['UserPage'], 'items' | 'total_exact'> & {
  items: T[];
  /** Only user lists say it; false: counting stopped and there are at least `total` rows (decision 0069). */
  total_exact?: boolean;
};

/** A command's answer: the event-store position the API client sends back as `X-Min-Position`. */
export type PositionAnswer = Schemas['PositionResponse'];

/** A command's answer that names the record it wrote. */
export type Written = Schemas['Written'];
