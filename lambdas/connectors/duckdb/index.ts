// MotherDuck destination (type `motherduck`). The platform publishes no config model for it (the
// SDK takes a free-form object, so secrets are found by name: md_token); the fields are the
// platform connector's: database, db_schema (main), table (elements), md_token, batch_size (50).
// Writes one row per element into a table the user created (see writer.ts), through DuckDB's own
// client on `md:` (see client.ts). Check: connects with the token, uses the database, confirms it
// is writable (not a read-only share) and that the table exists, and reports its columns.
import { z } from 'zod';
import { defineConnector, type ConnectorConfig } from '../definition';
import { describeDuckError, engineMissing, localDatabasePath, withMotherDuck, type MotherDuckTarget } from './client';
import { databaseReadOnly, deleteDocument, tableColumns, writeDocument } from './writer';

type MotherDuckConfig = MotherDuckTarget & ConnectorConfig;

const name = (field: string) => z.string({ message: `${field} is required` }).min(1, `${field} must not be empty`);

const input = z.looseObject({
  database: name('database'),
  db_schema: name('db_schema').default('main'),
  table: name('table').default('elements'),
  md_token: name('md_token'),
  batch_size: z.number().int().min(1, 'batch_size must be at least 1').default(50),
}) as unknown as z.ZodType<MotherDuckConfig>;

export const motherduckDestination = defineConnector<MotherDuckConfig>({
  kind: 'destination',
  type: 'motherduck',
  input,
  output: z.looseObject({}),
  secretFields: [],
  freeForm: true,
  unavailable: engineMissing,
  async check(c) {
    try {
      return await withMotherDuck(c, async (conn) => {
        await conn.run('SELECT 1');
        if (await databaseReadOnly(conn, c.database)) throw new Error(`database ${c.database} is read-only (a share?): rows cannot be written`);
        const columns = await tableColumns(conn, c);
        const names = new Set(columns.map((col) => col.name.toLowerCase()));
        const emb = columns.find((col) => col.name.toLowerCase() === 'embeddings');
        const notes = [`${localDatabasePath() ? 'local DuckDB file (token not verified)' : 'MotherDuck'}: table ${c.database}.${c.db_schema}.${c.table}, ${columns.length} columns`];
        if (emb) notes.push(`embeddings column of type ${emb.type}`);
        if (!names.has('record_id')) notes.push('no record_id column: rewrites replace rows by id only');
        return notes.join('; ');
      });
    } catch (err) {
      throw new Error(describeDuckError(err, c));
    }
  },
  upload: (c, file, ctx) => writeDocument(c, file, ctx),
  removeRecords: (c, recordId) => deleteDocument(c, recordId),
});
