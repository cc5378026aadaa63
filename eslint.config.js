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
        patterns: [...NODE_AND_DEPS, ...outside('terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'fs', 'ops', 'serve')],
      }],
      'no-restricted-globals': ['error',
        { name: 'setTimeout', message: 'src/core takes time as a parameter.' },
        { name: 'setInterval', message: 'src/core takes time as a parameter.' },
        { name: 'process', message: 'src/core is pure.' }],
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: 'src/core takes the clock as a parameter.' }],
    },
  },
  layer(['src/terminal/**/*.ts'], outside('recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon', 'protocol', 'ops', 'serve')),
  layer(['src/recording/**/*.ts'], outside('catalog', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon', 'protocol', 'ops', 'serve')),
  layer(['src/catalog/**/*.ts'], outside('terminal', 'recording', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon', 'protocol', 'ops', 'serve')),
  layer(['src/driver/**/*.ts'], outside('catalog', 'recording', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon', 'protocol', 'ops', 'serve')),
  layer(['src/harness/**/*.ts'], outside('cli', 'demo', 'host', 'server', 'store', 'daemon', 'ops', 'serve')),
  // The store may import core and protocol (types) only; nothing above it (issue 15 architecture).
  layer(['src/store/**/*.ts'], outside('terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'daemon', 'ops', 'serve')),
  layer(['src/transcript/**/*.ts'], outside('terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon', 'client', 'dashboard', 'ops', 'serve')),
  // The session manager's parts (approvals, policy, notifications): no transport, no operations layer above it.
  layer(['src/daemon/**/*.ts'], outside('ops', 'server', 'serve', 'cli', 'harness', 'demo')),
  // A recording replayed on the daemon runs the harness's replay and explain (one module only).
  layer(['src/daemon/recordings-replay.ts'], outside('ops', 'server', 'serve', 'cli', 'demo')),
  // The operations layer: every operation's handler and the one executor; no transport imports it from below.
  layer(['src/ops/**/*.ts'], outside('server', 'serve', 'cli', 'harness', 'demo', 'dashboard')),
  // The composition root (`specterm serve`): builds the daemon, the operations and the transports.
  layer(['src/serve/**/*.ts'], outside('cli', 'harness', 'demo', 'dashboard')),
  // The NATS transport of the operations layer (a fleet node's link): like src/server, it knows the operations, never the daemon.
  layer(['src/nats/**/*.ts'], outside('core', 'terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon', 'serve', 'dashboard')),
  // `specterm mcp`: tools over the daemon's client (the wire protocol), never the daemon itself.
  // (src/server is named by its relative path: the MCP SDK has a `server/` folder of its own.)
  layer(['src/mcp/**/*.ts'], [...outside('core', 'terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'host', 'store', 'daemon', 'ops', 'serve', 'dashboard'), { group: ['../server/*'], message: 'this layer may not import src/server (see CONTRIBUTING.md).' }]),
  // The CLI's client of the daemon: the wire protocol only (and Node).
  layer(['src/client/**/*.ts'], outside('terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon', 'ops', 'serve')),
  // The PTY host: a long-lived process that holds PTYs and bytes, no spec logic (issue 15).
  layer(['src/host/**/*.ts'], outside('recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'server', 'store', 'daemon', 'protocol', 'ops', 'serve')),
  layer(['src/demo/**/*.ts', 'src/demo/**/*.tsx'], outside('core', 'terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'host', 'server', 'store', 'daemon', 'protocol', 'fs', 'ops', 'serve')),
  // Private files written whole (0600, temp + rename/link): Node only, below every edge that writes one.
  layer(['src/fs/**/*.ts'], outside('core', 'terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon', 'protocol', 'client', 'dashboard', 'ops', 'serve')),
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
          ...outside('terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'server', 'store', 'host', 'daemon', 'fs', 'ops', 'serve'),
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
          ...outside('core', 'terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'host', 'server', 'store', 'daemon', 'fs', 'ops', 'serve'),
        ],
      }],
    },
  },
  // The transports: they carry operations (src/ops) and know nothing of the daemon behind them.
  layer(['src/server/**/*.ts'], outside('core', 'terminal', 'recording', 'catalog', 'driver', 'harness', 'cli', 'demo', 'store', 'host', 'daemon', 'serve')),
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
  },
);
