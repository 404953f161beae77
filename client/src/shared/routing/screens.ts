import { createElement, type ComponentType, type ReactNode } from 'react';
import type { StreamKind } from '@portal/projections/streams';

/** A route path of `app/routes.ts` → what it shows (a lazy page, so each area stays its own chunk). */
export type Screens = Record<string, () => ReactNode>;

/**
 * What a feature gives the app (`features/<area>/index.ts`, composed by `app/features.ts`): its built
 * protected and public screens, and the query root each of its stream kinds refreshes (checked against
 * the shared stream registry by `app/live-roots.unit.spec.ts`).
 */
export interface Feature {
  screens?: Screens;
  publicScreens?: Screens;
  liveRoots?: Partial<Record<StreamKind, string>>;
}

/** A screen entry: the (lazy) page with its props; `key` makes routes sharing a page start afresh. */
export function screen<P extends object>(page: ComponentType<P>, props?: P, key?: string): () => ReactNode {
  return () => createElement(page as ComponentType<object>, { ...(props ?? {}), key });
}

/** Every feature's screens in one table; a path given twice is a mistake (one would hide the other). */
export function composeScreens(tables: (Screens | undefined)[]): Screens {
  const all: Screens = {};
  for (const table of tables)
    for (const [path, render] of Object.entries(table ?? {})) {
      if (path in all) throw new Error(`Two features build the screen "${path}"`);
      all[path] = render;
    }
  return all;
}
