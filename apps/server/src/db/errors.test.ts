import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { isDatabaseDiskFull, isDatabaseUnavailable } from './errors.js';

const socketError = (code: string) => Object.assign(new Error(`connect ${code}`), { code });

describe('isDatabaseUnavailable', () => {
  it('reads a refused or dropped connection under a failed query, and shutdown states anywhere', () => {
    const refused = new DrizzleQueryError('select 1', [], socketError('ECONNREFUSED'));
    expect(isDatabaseUnavailable(refused)).toBe(true);
    const shutdown = Object.assign(new Error('terminating connection'), { code: '57P01' });
    expect(isDatabaseUnavailable(shutdown)).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('does not blame the database for other sockets or for query errors', () => {
    // An LLM endpoint or a download resetting its connection is not the database.
    expect(isDatabaseUnavailable(socketError('ECONNRESET'))).toBe(false);
    expect(
      isDatabaseUnavailable(new Error('fetch failed', { cause: socketError('ECONNREFUSED') })),
    ).toBe(false);
    const duplicate = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(isDatabaseUnavailable(new DrizzleQueryError('insert', [], duplicate))).toBe(false);
  });
});

describe('isDatabaseDiskFull', () => {
  it("reads PostgreSQL's disk_full under a failed query, and nothing else", () => {
    const full = Object.assign(new Error('could not extend file: No space left on device'), {
      code: '53100',
    });
    expect(isDatabaseDiskFull(new DrizzleQueryError('update notes', ['text'], full))).toBe(true);
    const duplicate = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(isDatabaseDiskFull(new DrizzleQueryError('insert', [], duplicate))).toBe(false);
    expect(isDatabaseDiskFull(new Error('ENOSPC'))).toBe(false);
  });
});
