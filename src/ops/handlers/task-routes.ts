/**
 * Tasks handed between sessions (`assign`; src/daemon/task-runner.ts).
 * @module
 */
import type { TaskRunner } from '../../daemon/task-runner.js';
import type { RouteHandlers } from '../contracts.js';

export function taskRoutes(tasks: TaskRunner): RouteHandlers {
  return {
    createTask: (input, ctx) => tasks.create(input.body, { requestedBy: ctx.principal.name, ...(ctx.callerSession ? { callerSession: ctx.callerSession } : {}) }),
    listTasks: () => ({ tasks: tasks.list() }),
    getTask: (input) => tasks.get(input.params.id),
    cancelTask: (input) => tasks.cancel(input.params.id),
  };
}
