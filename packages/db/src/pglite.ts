import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * Opens PGlite on `directory` (in memory when undefined), creating the database if it is new.
 *
 * Creating one runs initdb, about 3 s of CPU on a 2-core machine and most of what starting a
 * service costs in a test. When PGLITE_TEMPLATE_DIR is set (the jest preset sets it; a service
 * never does), a new database starts instead from a copy of a freshly initialized one kept in
 * that folder (PGlite's own dump, loaded with `loadDataDir`), which the first new database made.
 */
export async function openPglite(directory: string | undefined): Promise<PGlite> {
  const templateDir = process.env.PGLITE_TEMPLATE_DIR;
  const isNew = directory === undefined || !existsSync(path.join(directory, 'PG_VERSION'));
  if (!templateDir || !isNew) return PGlite.create(directory);
  const template = await initializedDatabase(templateDir);
  return PGlite.create(directory, { loadDataDir: template });
}

/** The template of each folder, read or made once per process (a test file makes several databases). */
const templates = new Map<string, Promise<Blob>>();

function initializedDatabase(dir: string): Promise<Blob> {
  let template = templates.get(dir);
  if (!template) {
    template = readOrMakeTemplate(dir);
    templates.set(dir, template);
    // A failed attempt is not kept: the next database tries again.
    template.catch(() => templates.delete(dir));
  }
  return template;
}

/** The dump of a freshly initialized database, made once per PGlite version and kept in `dir`. */
async function readOrMakeTemplate(dir: string): Promise<Blob> {
  const file = path.join(dir, `pglite-${pgliteVersion()}-initdb.tar`);
  if (existsSync(file)) return new Blob([readFileSync(file)]);
  const fresh = await PGlite.create();
  const dump = await fresh.dumpDataDir('none');
  await fresh.close();
  mkdirSync(dir, { recursive: true });
  // Written aside and renamed, so a test in another process never reads half a file.
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
  return dump;
}

/** The installed PGlite's version (its package.json is not exported, so it is read from disk). */
function pgliteVersion(): string {
  let dir = path.dirname(require.resolve('@electric-sql/pglite'));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}
