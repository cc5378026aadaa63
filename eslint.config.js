// Lint = layering + a few correctness rules. The folder rules below are the
// machine-checked form of CONTRIBUTING.md's "which folder may import which".
import tseslint from 'typescript-eslint';

const NODE_AND_DEPS = [
  { group: ['node:*'], message: 'src/core is pure: no Node APIs. Pass data in from an edge (src/terminal, src/driver, src/catalog).' },
  { group: ['@lydell/node-pty', '@xterm/*', 'recheck', 'ink', 'react', 'ajv'], message: 'src/core is pure: no runtime dependencies.' },
];
const NODE_BUILTINS = ['fs', 'os', 'path', 'child_process', 'crypto', 'net', 'http', 'events', 'util', 'url', 'process', 'timers'];

const layer = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { paths: [], patterns }] },
});
const outside = (...dirs) => dirs.map((d) => ({ group: [`**/${d}/*`, `**/${d}/**`], message: `this layer may not import src/${d} (see CONTRIBUTING.md).` }));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/.cache/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-empty-function': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      'no-control-regex': 'off',
      'no-misleading-character-class': 'off',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: NODE_BUILTINS.map((name) => ({ name, message: 'src/core is pure: no Node APIs.' })),
        patterns: [...NODE_AND_DEPS, ...outside('terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'fs')],
      }],
      'no-restricted-globals': ['error',
        { name: 'setTimeout', message: 'src/core takes time as a parameter.' },
        { name: 'setInterval', message: 'src/core takes time as a parameter.' },
        { name: 'process', message: 'src/core is pure.' }],
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: 'src/core takes the clock as a parameter.' }],
    },
  },
  layer(['src/terminal/**/*.ts'], outside('recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon', 'protocol')),
  layer(['src/recording/**/*.ts'], outside('catalog', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon', 'protocol')),
  layer(['src/catalog/**/*.ts'], outside('terminal', 'recording', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon', 'protocol')),
  layer(['src/driver/**/*.ts'], outside('catalog', 'recording', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon', 'protocol')),
  layer(['src/harness/**/*.ts'], outside('cli', 'demo', 'host', 'server', 'store', 'daemon')),
  // The store may import core and protocol (types) only; nothing above it (issue 15 architecture).
  layer(['src/store/**/*.ts'], outside('terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'daemon')),
  layer(['src/transcript/**/*.ts'], outside('terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon', 'client', 'dashboard')),
  // The session manager's parts (approvals, policy, notifications); the server sits on top of it.
  layer(['src/daemon/**/*.ts'], outside('server', 'cli', 'harness', 'demo')),
  // The daemon's composition root and its route handlers sit on the server (they build it).
  layer(['src/daemon/daemon.ts', 'src/daemon/routes/**/*.ts'], outside('cli', 'harness', 'demo')),
  // A recording replayed on the daemon runs the harness's replay and explain (one module only).
  layer(['src/daemon/recordings-replay.ts'], outside('server', 'cli', 'demo')),
  // The CLI's client of the daemon: the wire protocol only (and Node).
  layer(['src/client/**/*.ts'], outside('terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon')),
  // The PTY host: a long-lived process that holds PTYs and bytes, no spec logic (issue 15).
  layer(['src/host/**/*.ts'], outside('recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'server', 'store', 'daemon', 'protocol')),
  layer(['src/demo/**/*.ts', 'src/demo/**/*.tsx'], outside('core', 'terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'host', 'server', 'store', 'daemon', 'protocol', 'fs')),
  // Private files written whole (0600, temp + rename/link): Node only, below every edge that writes one.
  layer(['src/fs/**/*.ts'], outside('core', 'terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon', 'protocol', 'client', 'dashboard')),
  // src/protocol is the wire contract: pure (no Node, no I/O), zod only, core for types only.
  {
    files: ['src/protocol/**/*.ts'],
    ignores: ['src/protocol/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: NODE_BUILTINS.map((name) => ({ name, message: 'src/protocol is pure: no Node APIs.' })),
        patterns: [
          { group: ['node:*'], message: 'src/protocol is pure: no Node APIs (the browser imports it too).' },
          { group: ['@lydell/node-pty', '@xterm/*', 'recheck', 'ink', 'react', 'ajv', 'ws'], message: 'src/protocol may depend on zod only.' },
          { group: ['**/core/*', '**/core/**'], allowTypeImports: true, message: 'src/protocol may import src/core for types only.' },
          ...outside('terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'server', 'store', 'host', 'daemon', 'fs'),
        ],
      }],
      'no-restricted-globals': ['error', { name: 'process', message: 'src/protocol is pure.' }],
    },
  },
  // The dashboard (browser code, built by Vite): the wire protocol only; no Node, no other layer.
  {
    files: ['src/dashboard/**/*.ts', 'src/dashboard/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: NODE_BUILTINS.map((name) => ({ name, message: 'src/dashboard runs in the browser: no Node APIs.' })),
        patterns: [
          { group: ['node:*'], message: 'src/dashboard runs in the browser: no Node APIs.' },
          ...outside('core', 'terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon', 'fs'),
        ],
      }],
    },
  },
  layer(['src/server/**/*.ts'], outside('core', 'terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'store', 'host')),
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
  },
);
