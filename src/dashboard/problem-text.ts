/**
 * A refusal as a person reads it. The daemon's problem `detail` is written for every client, so
 * it can carry parts meant for programs: the route it came from (`POST /api/v1/sessions: `),
 * JSON pointers naming fields (`/cwd: `), a route to call (`(POST …/restart)`) or a schema
 * hint. The dashboard shows the advice without them (issue 27 item 10); the whole document
 * stays on the `ApiProblem` for code that needs it.
 * @module
 */

const METHOD = '(?:GET|POST|PUT|PATCH|DELETE)';
/** `POST /api/v1/sessions: ` at the start: the route the refusal came from. */
const ROUTE_PREFIX = new RegExp(`^${METHOD} /\\S*: `);
/** `(POST …/restart)`, `(see GET /api/v1/…)`, `(the schema is in /api/v1/openapi.json)`: a pointer for programs. */
const ROUTE_ASIDE = new RegExp(`\\s*\\((?:[^()]*\\b${METHOD} [^()]*|[^()]*/api/v\\d[^()]*)\\)`, 'g');
/** `/cwd: ` or `/labels/team: ` at the start of a clause: a JSON pointer naming the field. */
const FIELD_POINTER = /(^|; )\/[\w/~.-]*: /g;

/** `detail` without routes, JSON pointers and schema asides (the field's own words stay). */
export function toPersonText(detail: string): string {
  return detail.replace(ROUTE_PREFIX, '').replace(ROUTE_ASIDE, '').replace(FIELD_POINTER, '$1').trim();
}
