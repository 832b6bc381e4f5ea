// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import i18next from 'eslint-plugin-i18next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import moments from './eslint-rules/index.js';

const MEDIA_DOOR =
  'Run media tools through the injected MediaRepository (apps/server/src/modules/media/media.repository.ts).';
/** The parts of @moments/media that start a tool (the rest is pure and free to import). */
const MEDIA_TOOL_WRAPPERS = {
  '@moments/media/probe': [
    'probeMedia',
    'measureMedia',
    'validateUploadedVideo',
    'extractAudioForAsr',
    'extractAudioSpan',
    'extractThumbnail',
  ],
  '@moments/media/ingest': ['fetchVideoMetadata', 'downloadVideo'],
  '@moments/media/thumbnail': ['pickThumbnail', 'imageToThumbnail'],
  '@moments/media/reframe': ['analyzeSubjects', 'reframeVideo'],
  '@moments/media/captions': ['burnCaptions'],
};

/** The media repository's implementation: the one place that starts the tools. */
const MEDIA_TOOL_FILES = [
  'apps/server/src/modules/media/tools-media.repository.ts',
  'apps/server/src/modules/media/clip-render.ts',
];

const TABLES_DOOR =
  "Query through the module's repository (*.repository.ts, with an example in apps/server/src/sql-review/examples.ts), not the tables.";

/**
 * The imports a module file may not make: the media tools (always), and with `tables` the schema
 * and the query builder (types stay free: a service may name a row's type).
 */
function restrictedImports(tables) {
  return {
    paths: [
      ...['@moments/media/ffmpeg', '@moments/process', 'node:child_process', 'child_process'].map(
        (name) => ({ name, allowTypeImports: true, message: MEDIA_DOOR }),
      ),
      ...Object.entries(MEDIA_TOOL_WRAPPERS).map(([name, importNames]) => ({
        name,
        importNames,
        allowTypeImports: true,
        message: MEDIA_DOOR,
      })),
      ...(tables ? [{ name: 'drizzle-orm', allowTypeImports: true, message: TABLES_DOOR }] : []),
    ],
    patterns: [
      {
        group: ['**/media/clip-render*', '**/media/tools-media.repository*'],
        allowTypeImports: true,
        message: MEDIA_DOOR,
      },
      ...(tables
        ? [{ group: ['**/db/schema*'], allowTypeImports: true, message: TABLES_DOOR }]
        : []),
    ],
  };
}

/** Tests, their support code, end-to-end runs and benches: not held to the function length limit. */
const TEST_CODE = [
  '**/*.test.{ts,tsx}',
  '**/testing/**',
  '**/test/**',
  '**/support/**',
  'e2e/**',
  'bench/**',
];

/** Attributes a person reads (or hears, through a screen reader): their text comes from the catalogue. */
const READ_ATTRIBUTES = [
  'title',
  'label',
  'placeholder',
  'aria-label',
  'description',
  'alt',
  'message',
  'tooltip',
  'error',
  'children',
  '^.*Title$',
  '^.*Label$',
  '^.*Text$',
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '.tools/**',
      'apps/server/drizzle/**',
      'apps/web/public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Services reach the media tools only through the media repository (injected, so
    // a service test runs with the fake); only its implementation may import the tool wrappers.
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts', ...MEDIA_TOOL_FILES],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', restrictedImports(false)] },
  },
  {
    // Queries live in repositories (*.repository.ts), so the SQL review (`npm run sql`) shows
    // every statement the server sends; a service asks its repository, never the tables.
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.repository.ts', ...MEDIA_TOOL_FILES],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', restrictedImports(true)] },
  },
  {
    // Every catch says why (a log line with ids, or a comment for deliberate
    // best-effort cleanup); the server logs through pino, never the console.
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    plugins: { moments },
    rules: { 'moments/catch-says-why': 'error' },
  },
  {
    files: ['apps/server/src/**/*.ts', 'apps/server/scripts/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // Short functions, each a step a reader can name; a React component may run to 200
    // lines (its markup is most of it). Tests and their helpers are exempt.
    files: ['apps/*/src/**/*.ts', 'packages/*/src/**/*.ts'],
    ignores: TEST_CODE,
    rules: { 'max-lines-per-function': ['error', { max: 120 }] },
  },
  {
    files: ['apps/web/src/**/*.tsx'],
    ignores: TEST_CODE,
    rules: { 'max-lines-per-function': ['error', { max: 200 }] },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // Every word on a screen comes from the message catalogue (apps/web/src/messages),
    // so no screen shows English typed inline, and a translation has one place to go.
    files: ['apps/web/src/**/*.tsx'],
    ignores: TEST_CODE,
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        { mode: 'jsx-only', 'jsx-attributes': { include: READ_ATTRIBUTES } },
      ],
    },
  },
);
