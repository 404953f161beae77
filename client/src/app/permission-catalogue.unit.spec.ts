import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ALL_PERMISSIONS, isCataloguedPermission, MARKER_PERMISSIONS } from '@portal/projections/permissions';
import * as access from './access';

// Permission names come from one shared catalogue (decision 0048): the client copies none by hand.

/** A permission list that records every name a predicate asks about. */
function recordingList(held: readonly string[], asked: Set<string>): readonly string[] {
  const list = [...held];
  const includes = (name: string) => {
    asked.add(name);
    return held.includes(name);
  };
  return Object.assign(list, { includes });
}

const HOLDERS: readonly (readonly string[])[] = [
  [],
  [MARKER_PERMISSIONS.admin],
  [MARKER_PERMISSIONS.teacher],
  [MARKER_PERMISSIONS.partner],
  [MARKER_PERMISSIONS.student],
  [MARKER_PERMISSIONS.admin, ...ALL_PERMISSIONS],
  [MARKER_PERMISSIONS.teacher, ...ALL_PERMISSIONS],
  [MARKER_PERMISSIONS.partner, ...ALL_PERMISSIONS],
];

describe('the permission catalogue in the client', () => {
  it("access.ts's predicates ask only about catalogued permission names", () => {
    const asked = new Set<string>();
    const predicates = Object.entries(access).filter(
      ([name, value]) => typeof value === 'function' && !['has', 'hasAny', 'internalMay'].includes(name),
    ) as [string, (p: readonly string[]) => unknown][];
    expect(predicates.length).toBeGreaterThan(20);
    for (const [, predicate] of predicates) {
      for (const held of HOLDERS) predicate(recordingList(held, asked));
    }
    expect(asked.size).toBeGreaterThan(10);
    expect([...asked].filter((name) => !isCataloguedPermission(name))).toEqual([]);
  });

  it("access.ts's exported permission names are all catalogued", () => {
    const names = (Object.values(access) as unknown[]).filter((v): v is string => typeof v === 'string');
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter((name) => !isCataloguedPermission(name))).toEqual([]);
  });

  it('no client source spells a permission name the catalogue lacks', () => {
    const root = join(process.cwd(), 'client', 'src');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const path = join(dir, entry);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(entry) && !entry.endsWith('.d.ts') && !entry.includes('.spec.'))
          files.push(path);
      }
    };
    walk(root);
    const strays: string[] = [];
    for (const file of files) {
      for (const [, name] of readFileSync(file, 'utf8').matchAll(
        /['"`]((?:USER_IS|PARTNER_CAN|CAN)_[A-Z][A-Z_]*)['"`]/g,
      )) {
        if (!isCataloguedPermission(name!)) strays.push(`${relative(root, file)}: ${name}`);
      }
    }
    expect(strays).toEqual([]);
  });
});
