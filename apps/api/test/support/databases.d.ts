import { type DatabaseHandle } from '../../src/db/client.js';
export type DatabaseKind = 'pglite' | 'postgres';
/**
 * The databases every API test runs on: embedded PGlite always, and PostgreSQL when it answers.
 * In CI PostgreSQL must be there: its absence fails the run instead of skipping the tests.
 */
export declare function databaseKinds(): Promise<DatabaseKind[]>;
/** A fresh, migrated database of the given kind; dropping it is part of close(). */
export declare function openTestDatabase(kind: DatabaseKind): Promise<DatabaseHandle>;
