import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientSchemaText } from './client-schema.js';
import { buildOpenApiDocument, CLIENT_SCHEMA_PATH, OPENAPI_PATH, openApiText } from './openapi-document.js';

// CI fails on drift in anything generated (CONVENTIONS; decision 0048): the committed OpenAPI document
// and the client types generated from it must be what the code builds now.
const root = process.cwd();
const committed = (path: string) => readFileSync(join(root, path), 'utf8');

function expectUpToDate(path: string, built: string): void {
  const current = committed(path);
  if (current === built) return;
  const a = current.split('\n');
  const b = built.split('\n');
  const line = a.findIndex((l, i) => l !== b[i]);
  throw new Error(
    `${path} is stale: run npm run openapi and commit the result.\n` +
      `First difference at line ${line + 1}:\n  committed: ${a[line] ?? '<end of file>'}\n  built:     ${b[line] ?? '<end of file>'}`,
  );
}

describe('the committed API contract', () => {
  it('docs/openapi.json and the client schema are what the code builds (run npm run openapi)', async () => {
    const document = await buildOpenApiDocument();
    expectUpToDate(OPENAPI_PATH, openApiText(document));
    expectUpToDate(CLIENT_SCHEMA_PATH, await clientSchemaText(document));
  });

  it('builds the same document twice: no timestamps or order that depends on the run', async () => {
    expect(openApiText(await buildOpenApiDocument())).toBe(openApiText(await buildOpenApiDocument()));
  });
});
