/**
 * `npm run openapi`: writes the committed API contract (docs/decisions/0048), docs/openapi.json and the
 * client's generated types, from the controllers' metadata. Opens no store, database or port.
 * `npm run openapi -- --check` writes nothing and exits 1 when either file is stale.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientSchemaText } from '../contracts/client-schema.js';
import {
  buildOpenApiDocument,
  CLIENT_SCHEMA_PATH,
  OPENAPI_PATH,
  openApiText,
} from '../contracts/openapi-document.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const check = process.argv.includes('--check');

async function main(): Promise<number> {
  const document = await buildOpenApiDocument();
  const files = [
    [OPENAPI_PATH, openApiText(document)],
    [CLIENT_SCHEMA_PATH, await clientSchemaText(document)],
  ] as const;
  let stale = 0;
  for (const [path, text] of files) {
    const current = await readFile(join(root, path), 'utf8').catch(() => null);
    if (current === text) {
      process.stdout.write(`${path}: up to date\n`);
    } else if (check) {
      stale++;
      process.stdout.write(`${path}: stale (run npm run openapi)\n`);
    } else {
      await writeFile(join(root, path), text);
      process.stdout.write(`${path}: written\n`);
    }
  }
  return stale ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
