// `node --conditions=source --import ./tests/support/swc-register.mjs file.ts`: runs the server's
// TypeScript sources the way Jest does (@swc/core with the root .swcrc: legacy decorators AND decorator
// metadata). tsx (esbuild) cannot emit decorator metadata, so Nest's dependency injection fails under it.
import { register } from 'node:module';

register('./swc-hooks.mjs', import.meta.url);
