// @ts-check
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, it } from 'vitest';
import rule from './catch-says-why.js';

// RuleTester declares its cases through the test framework's functions: vitest's here.
RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
});

tester.run('catch-says-why', rule, {
  valid: [
    // Logs with the run's ids.
    `try { await refund(); } catch (err) { log.warn({ err, taskId }, 'refund failed'); }`,
    `await refund().catch((err) => log.error({ err }, 'refund failed'));`,
    // Rethrows, or passes the error on.
    `try { parse(); } catch (error) { throw new BadInput(error); }`,
    `try { parse(); } catch (error) { return { ok: false, error }; }`,
    `try { kill(pid); } catch (error) { return error.code === 'EPERM'; }`,
    // A named handler does something.
    `promise.catch(reject);`,
    // A comment says why it is deliberate: inside, on the line above, or above the statement.
    `try { rm(dir); } catch {\n  // Best effort: swept with the work root.\n}`,
    `await fs.rm(dir).catch(() => {\n  /* best effort: swept later */\n});`,
    `// Best effort: a folder left behind is swept with the process's work root.\nawait fs.rm(dir).catch(() => undefined);`,
    `const entries = await fs\n  .readdir(dir)\n  // No folder yet: nothing to sweep.\n  .catch(() => []);`,
    // Not a promise's catch.
    `cache.catch;`,
  ],
  invalid: [
    { code: `try { await refund(); } catch {}`, errors: [{ messageId: 'silent' }] },
    { code: `try { x(); } catch (error) { return null; }`, errors: [{ messageId: 'silent' }] },
    {
      code: `await storage.delete(key).catch(() => undefined);`,
      errors: [{ messageId: 'silent' }],
    },
    { code: `client.end().catch(() => {});`, errors: [{ messageId: 'silent' }] },
    { code: `p.catch(function () { return 1; });`, errors: [{ messageId: 'silent' }] },
    // A comment elsewhere in the file does not explain this catch.
    {
      code: `// Loads the cache.\nconst a = 1;\n\nconst b = await load().catch(() => null);`,
      errors: [{ messageId: 'silent' }],
    },
  ],
});
