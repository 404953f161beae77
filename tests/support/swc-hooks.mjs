// Module hooks for swc-register.mjs: `@portal/projections` resolves to this checkout's sources, `.js`
// specifiers that name a `.ts` source resolve to it, and `.ts` files outside node_modules are compiled
// with @swc/core using the repository's .swcrc.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from '@swc/core';

const swcrc = JSON.parse(readFileSync(new URL('../../.swcrc', import.meta.url), 'utf8'));
delete swcrc.$schema;

// As Jest's moduleNameMapper: this checkout's projections sources, whatever node_modules links to.
const PROJECTIONS = new URL('../../projections/src/', import.meta.url);

export async function resolve(specifier, context, next) {
  if (specifier === '@portal/projections')
    return { url: new URL('index.ts', PROJECTIONS).href, shortCircuit: true };
  if (specifier.startsWith('@portal/projections/'))
    return {
      url: new URL(`${specifier.slice('@portal/projections/'.length)}.ts`, PROJECTIONS).href,
      shortCircuit: true,
    };
  try {
    return await next(specifier, context);
  } catch (e) {
    if (context.parentURL && /^(\.|\/|file:)/.test(specifier) && specifier.endsWith('.js')) {
      const url = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
      if (existsSync(fileURLToPath(url))) return { url: url.href, shortCircuit: true };
    }
    throw e;
  }
}

export async function load(url, context, next) {
  if (url.startsWith('file:') && url.endsWith('.ts') && !url.includes('/node_modules/')) {
    const filename = fileURLToPath(url);
    const out = await transform(await readFile(filename, 'utf8'), { ...swcrc, filename, swcrc: false });
    return { format: 'module', source: out.code, shortCircuit: true };
  }
  return next(url, context);
}
