import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Live-PTY tests spawn real child processes; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Names the run for the processes tests start; ends any PTY host of the run left alive.
    globalSetup: ['test/global-setup.ts'],
  },
});
