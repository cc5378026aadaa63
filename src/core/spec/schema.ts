/**
 * The JSON Schema (draft-07) of `adhdev:cli/spec@4`, for editors and external tools.
 * `schema/spec-v4.schema.json` is generated from this object (`scripts/gen-schema.mjs`);
 * never edit the JSON by hand.
 *
 * The schema checks structure (types, required fields, enums, ranges, unknown fields).
 * What it cannot express — state/section references, regexes that do not compile,
 * duplicate ids, "exactly one initial state", ReDoS — only `validateSpec` checks.
 * Unlike the validator (which only warns), the schema rejects unknown fields so editors
 * flag typos; documentation keys starting with `_` are allowed everywhere.
 */

type Schema = Record<string, unknown>;

/** Documentation keys (`_note`, `_sections_note`, …) are allowed on every object. */
const DOC_KEYS = { '^_': { description: 'Documentation key: ignored by the engine.' } };

function obj(description: string, properties: Record<string, Schema>, required: string[] = []): Schema {
  return {
    type: 'object',
    description,
    properties,
    ...(required.length ? { required } : {}),
    patternProperties: DOC_KEYS,
    additionalProperties: false,
  };
}
const str = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
const nonEmpty = (description: string): Schema => str(description, { minLength: 1 });
const bool = (description: string): Schema => ({ type: 'boolean', description });
const ms = (description: string): Schema => ({ type: 'number', minimum: 0, description });
const count = (description: string, minimum = 0): Schema => ({ type: 'integer', minimum, description });
const regex = (description: string): Schema => str(description);
/** Distinct flags from `dgimsuyv`, never `u` together with `v` (same rule as the validator). */
const flags = (description: string): Schema => str(description, { pattern: '^(?!.*(.).*\\1)(?!.*u.*v)(?!.*v.*u)[dgimsuyv]*$' });
const ref = (name: string): Schema => ({ $ref: `#/definitions/${name}` });

const cursorKeys = obj('Arrow-key bytes used in arrow_keys select mode.', {
  up: str('Bytes for "up" (modal presses default to ESC[A).'),
  down: str('Bytes for "down" (modal presses default to ESC[B).'),
});

const anchorContext = obj('Guard on the lines around an anchor candidate; a regex on a missing neighbour line fails.', {
  prev: regex('Regex the line above the candidate must match.'),
  prev_flags: flags('Flags for prev (default none).'),
  next: regex('Regex the line below the candidate must match.'),
  next_flags: flags('Flags for next (default none).'),
});

const size: Schema = {
  description: 'A line count, or a percentage of the screen height such as "25%" / "12.5%" (0–100%).',
  oneOf: [
    { type: 'integer', minimum: 0, description: 'Number of lines.' },
    { type: 'string', pattern: '^(?:100(?:\\.0+)?|\\d{1,2}(?:\\.\\d+)?)%$', description: 'Percentage of the screen height.' },
  ],
};

const sectionDef = obj('A named line range computed from the current screen (spec-format §2).', {
  anchor: {
    description: 'Regex (or list of candidate regexes) locating the start line; the topmost matching candidate wins.',
    anyOf: [regex('Anchor regex.'), { type: 'array', minItems: 1, items: regex('Anchor candidate regex.'), description: 'Anchor candidates.' }],
  },
  anchor_flags: flags('Flags for every anchor regex (default none). Avoid "g"/"y": they make test() stateful.'),
  anchor_last: bool('Resolve each candidate to its last matching line (scan bottom→top) instead of its first.'),
  anchor_context: {
    description: 'One context guard for every candidate, or a list matched to the anchor list by position (null = no guard).',
    anyOf: [anchorContext, { type: 'array', items: { anyOf: [anchorContext, { type: 'null' }] }, description: 'Per-candidate guards.' }],
  },
  above: count('Start the section this many lines above the anchor line (anchored sections only).'),
  anchor_miss: { const: 'empty', description: '"empty": a missed anchor gives an empty section instead of the whole screen.' },
  lines: count('Section length in lines after the anchor (without until_regex).'),
  until_regex: regex('End at the first line below the anchor line matching this regex (exclusive); wins over lines.'),
  until_regex_flags: flags('Flags for until_regex (default none).'),
  until: nonEmpty('A regex when it starts with "^" (searched after the section start, no flags), otherwise another section id whose start ends this one.'),
  from_top: { ...size, description: 'Skip the first N lines (the section runs to the end). 0 = whole screen.' },
  from_bottom: { ...size, description: 'The last N lines.' },
});

const conditionKinds: Schema[] = [
  obj('Conjunction: true when every child is true (empty = true).', { all: { type: 'array', items: ref('condition'), description: 'Child conditions.' } }, ['all']),
  obj('Disjunction: true when some child is true (empty = false).', { any: { type: 'array', items: ref('condition'), description: 'Child conditions.' } }, ['any']),
  obj('Negation of one condition.', { not: ref('condition') }, ['not']),
  obj('Shadow-only daemon signal: always true for the FSM (spec-format §3.6).', {
    signal: nonEmpty('Name of a daemon-normalized boolean signal, e.g. "final_assistant_present".'),
    equals: bool('Expected signal value (default true).'),
  }, ['signal']),
  obj('True once this many ms have passed since the current state was entered.', { elapsed_ms: ms('Milliseconds in the current state.') }, ['elapsed_ms']),
  obj('True once the watched region (section > cursor_above > whole screen) has been unchanged for stable_ms.', {
    stable_ms: ms('Milliseconds without change.'),
    section: nonEmpty('Watch this section.'),
    cursor_above: count('Watch the N rows above the cursor.'),
    ignore_lines: regex('Lines matching this regex (flag m, per line) are ignored when comparing frames; never match an active spinner.'),
    changed: bool('Accepted for compatibility and ignored on a stable_ms condition.'),
  }, ['stable_ms']),
  obj('Regex tested once against the whole (multi-line) section text.', {
    matches: regex('The regex. Without the m flag ^/$ bind to the whole section; use (?:^|\\n) for line starts.'),
    section: nonEmpty('Section to test (default: the whole screen).'),
    flags: flags('Regex flags; giving flags REPLACES the default "i".'),
    cursor_row_min: count('Inclusive minimum cursor row when matched (0-based, guard-frame rows).'),
    cursor_row_max: count('Inclusive maximum cursor row when matched.'),
    cursor_col_min: count('Inclusive minimum cursor column when matched.'),
    cursor_col_max: count('Inclusive maximum cursor column when matched.'),
  }, ['matches']),
  obj('specterm extension: regex over the terminal window title (OSC 0/2).', {
    window_title: regex('The regex tested against the window title.'),
    flags: flags('Regex flags; giving flags REPLACES the default "i".'),
  }, ['window_title']),
  obj('specterm extension: regex over the last payload of one OSC number (ESC ] N ; payload).', {
    osc: { type: 'integer', minimum: 0, maximum: 65535, description: 'The OSC number (0/2: the window title, 7501: Codex state, 9: notifications/progress).' },
    payload: regex('The regex tested against the last payload of that number (parameters after "N;").'),
    flags: flags('Regex flags; giving flags REPLACES the default "i".'),
    held_ms: { type: 'number', minimum: 0, description: 'The payload must also have stood this long (ms); shorter blips do not count.' },
  }, ['osc', 'payload']),
  obj('Whether the N rows above the cursor differ from the previous evaluation\'s frame.', {
    cursor_above: count('Rows above the cursor to compare.'),
    changed: bool('true: fires when they differ; false: when they are equal.'),
  }, ['cursor_above', 'changed']),
];

const titleRule = obj('How the modal title is read.', {
  section: nonEmpty('Section to read (default: the whole screen).'),
  first_line: bool('Use the first non-blank line that is not a box-drawing rule (wins over regex).'),
  regex: regex('First match; capture group 1 if it participated, else the whole match.'),
  flags: flags('Flags for regex (default "i").'),
  join_wrapped: bool('specterm extension, with regex: also the rows above the match that a word-wrapper broke off the title (same column; the first word of the row below would not have fitted), joined with single spaces.'),
});

const buttonRule = obj('How modal buttons are read (spec-format §5.2).', {
  section: nonEmpty('Section to read; the whole screen is retried when fewer than min_count buttons parse.'),
  pattern: { ...nonEmpty('Button regex: group 1 = display index, group 2 = label (numbered mode).') },
  flags: flags('Flags (default "gm"; "g" is forced in the default mode and stripped with continuation_lines).'),
  key_for_index: str('Keys sent to press a button; "{index}" is replaced by its display index, e.g. "{index}\\r".'),
  min_count: count('Fewest buttons that make a modal (default 2).'),
  continuation_lines: bool('Append following indented, non-matching lines to the label.'),
  label_continuation: obj('Join the rows a wrapped label goes on over: rows starting at or right of the label\'s column that are not option rows (matched per line, as with continuation_lines; not with it).', {
    match_style: bool('Only rows whose first character is drawn like the text they continue (colours, bold, dim, italic, underline, inverse), so a description in another colour stays out.'),
    word_wrap: bool('Only rows a word-wrapper would have made: they start at the column of the label (or of one of its words) and their first word would not have fitted at the end of the row above within the screen\'s width, so a description under or beside the label stays out even without colour.'),
    mirror_margin: bool('With word_wrap: the wrapper leaves as many columns free at the right edge as the option block is inset from the left (an Ink box with paddingX; a border and padding on both sides), so a word that would have ended in them did not fit.'),
  }),
  select_mode: { enum: ['index', 'arrow_keys'], description: '"index": send key_for_index; "arrow_keys": move from the current row with arrows, then confirm.' },
  cursor_keys: cursorKeys,
  cursor_marker: nonEmpty('Glyphs marking the current row, replacing the default ❯›>.'),
  label_group: count('Ordinal mode: capture group holding the label (buttons are numbered by order).', 1),
  key_group: count('Ordinal mode: capture group holding the key token (y, tab, esc, …).', 1),
  skip_headings: bool('Leave out rows whose label starts in a bold cell on the background of a bold title (the first non-blank, non-box character of the rule\'s text): a list\'s group headings; ordinal buttons are numbered again. Needs the screen\'s cells (text alone keeps every row).'),
  label_style: bool('A label ends before the first word (after a blank) drawn otherwise than its first letter: a muted description beside the name is not part of it. A row drawn in one style (the highlighted one) is cut at the description column when at least two other rows start theirs in one same column. Needs the screen\'s cells.'),
  label_column: { enum: ['title'], description: '"title": options start in the terminal column of the title\'s first character (the rule\'s text\'s first non-blank, non-box character); a row whose label starts elsewhere (the screen behind a dialog showing through) is left out and ordinal buttons are numbered again. Needs the screen\'s cells.' },
}, ['pattern']);

const subjectRule = obj('specterm extension: where an approval shows the thing consented to, read whole (every line); an auto-approve policy judges only this.', {
  section: nonEmpty('Section to read (default: the whole screen).'),
  regex: regex('The region: capture group 1 if it participated, else the whole match; it must match exactly once (twice is ambiguous: a person decides). Without it: the whole section.'),
  flags: flags('Flags for regex (default none; g and d are added).'),
  kind: { enum: ['command', 'path', 'url', 'tool'], description: 'What is consented to: a shell command, a file path, a URL, or a tool and its arguments.' },
}, ['kind']);

const subject = {
  description: 'specterm extension: the consented thing of an approval state; one rule, or alternatives tried in order (the first whose regex matches decides).',
  anyOf: [subjectRule, { type: 'array', minItems: 1, items: subjectRule, description: 'Alternatives, tried in order.' }],
};

const state = {
  ...obj('An FSM node (spec-format §4.1).', {
    id: { type: 'string', minLength: 1, not: { const: '*' }, description: 'Unique state id ("*" is reserved).' },
    label: str('Human label.'),
    initial: bool('Exactly one state is the initial state.'),
    modal: bool('The state shows a modal with buttons (default status approval, default modal_kind approval).'),
    modal_kind: { enum: ['approval', 'picker', 'confirm'], description: 'approval: consent prompt (auto-approve allowed); picker: user-opened selection; confirm: user decides.' },
    status: { enum: ['idle', 'generating', 'approval', 'waiting_external'], description: 'Coarse status for consumers (default: modal → approval, id busy/generating → generating, else idle).' },
    extract: obj('Title, button and subject extraction for this state.', { title: titleRule, buttons: buttonRule, subject }),
  }, ['id', 'label']),
  if: { properties: { status: { const: 'waiting_external', description: 'A state blocked on a human outside the terminal…' } }, required: ['status'] },
  then: { not: { properties: { modal: { const: true, description: '…must not be modal.' } }, required: ['modal'] } },
};

const transition = obj('A guarded edge (spec-format §4.2).', {
  from: {
    description: 'Source state id, a list of ids, or "*" (every state, the destination included).',
    anyOf: [nonEmpty('A state id or "*".'), { type: 'array', minItems: 1, items: nonEmpty('A state id.'), description: 'Source state ids.' }],
  },
  to: nonEmpty('Destination state id.'),
  when: ref('condition'),
  min_hold_ms: ms('Minimum time in the current state before this edge may fire (default 0).'),
  priority: { type: 'number', description: 'Higher first (default 0); ties keep declaration order.' },
  label: str('Debug label (default "<from>→<to>").'),
}, ['from', 'to']);

const waitFor = obj('What shows that the picker opened.', {
  section: nonEmpty('Section to test (default: the whole screen).'),
  regex: nonEmpty('Regex (flags default "i").'),
  flags: flags('Regex flags.'),
}, ['regex']);

const extractChoices = obj('How picker choices are parsed, line by line.', {
  section: nonEmpty('Section to read (default: the whole screen).'),
  pattern: nonEmpty('Regex: group 1 = index, group 2 = label (flags default none).'),
  flags: flags('Regex flags.'),
}, ['pattern']);

const action: Schema = {
  description: 'What a control does.',
  anyOf: [
    obj('Write keys verbatim.', { type: { const: 'send_keys', description: 'Action type.' }, keys: str('Bytes to write, e.g. "\\u0003".') }, ['type', 'keys']),
    obj('Open a picker and wait for it.', {
      type: { const: 'open_picker', description: 'Action type.' },
      trigger_keys: str('Keys that open the picker, e.g. "/model\\r" (a trailing CR is sent 200 ms later).'),
      wait_for: waitFor,
      extract_choices: extractChoices,
      submit_key: str('Keys that select a choice (default "{index}\\r").'),
      select_mode: { enum: ['index', 'arrow_keys'], description: 'How a choice is selected.' },
      cursor_keys: cursorKeys,
    }, ['type', 'trigger_keys', 'wait_for', 'extract_choices']),
    obj('Attach an image by writing it to a temp file and typing its path.', {
      type: { const: 'attach_image', description: 'Action type.' },
      method: { const: 'tempfile_then_keys', description: 'The only method.' },
      keys_template: str('Keys typed after saving; must contain "{path}".', { pattern: '\\{path\\}' }),
    }, ['type', 'keys_template']),
  ],
};

/** The JSON Schema of `adhdev:cli/spec@4` (draft-07). */
export const SPEC_JSON_SCHEMA: Record<string, unknown> = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'adhdev:cli/spec@4',
  description: 'A declarative FSM spec for an interactive AI coding-agent CLI (specterm / ADHDev format 4).',
  type: 'object',
  required: ['$schema', 'id', 'binary', 'send_message', 'states', 'transitions'],
  patternProperties: DOC_KEYS,
  additionalProperties: false,
  properties: {
    $schema: { const: 'adhdev:cli/spec@4', description: 'Format marker; must be exactly "adhdev:cli/spec@4".' },
    id: nonEmpty('Provider id, e.g. "claude-cli".'),
    name: str('Human name.'),
    binary: nonEmpty('Command to launch (resolved on PATH).'),
    spawn_args: { type: 'array', items: str('An argument; "{{workingDir}}" is substituted.'), description: 'Base argv.' },
    env: { type: 'object', additionalProperties: str('Value.'), description: 'Extra environment variables.' },
    cli_version_range: str('Semver range of the CLI versions this spec was proven on; a session outside it reports version_unproven.'),
    install: str('specterm extension: the command that installs the CLI (e.g. "npm install -g opencode-ai@1.18.33"), shown when the binary is not found.'),
    cli_version: obj('specterm extension: how to read the installed CLI version (run binary + args, no shell).', {
      args: { type: 'array', items: str('An argument, e.g. "--version".'), description: 'Arguments that make the CLI print its version and exit.' },
      regex: regex('Regex over the output; its first capture group (else the whole match) is the version. Default: the first x.y.z.'),
    }, ['args']),
    send_on_spawn: { type: 'array', items: str('Bytes written once after the first output (empty strings are skipped).'), description: 'Wake sequences such as focus-in "\\u001b[I".' },
    send_on_spawn_delay_ms: ms('Delay after the first output before send_on_spawn (default 250).'),
    send_on_spawn_max_wait_ms: ms('Write send_on_spawn after this long even without output (default 2000).'),
    refocus_when_stalled_ms: { type: 'number', exclusiveMinimum: 0, description: 'While generating with no screen change this long, re-write send_on_spawn (requires send_on_spawn).' },
    pre_launch_trust: {
      description: 'Mark the workspace trusted before spawning.',
      oneOf: [
        obj('A named trust scheme.', { scheme: { enum: ['kimi_workspace_file', 'grok_toml_file', 'codex_toml_file', 'claude_json_projects', 'gemini_trusted_folders', 'qwen_trusted_folders'], description: 'Engine-implemented trust writer.' } }, ['scheme']),
        obj('Append the workspace to a JSON array in a settings file.', {
          settings_path: nonEmpty('JSON settings file ("~" = home).'),
          key: nonEmpty('Key of the array of trusted folders.'),
        }, ['settings_path', 'key']),
      ],
    },
    startup_dismiss: obj('Auto-dismiss boot-time prompts (spec-format §7.4).', {
      patterns: {
        type: 'array',
        minItems: 1,
        description: 'Prompts to dismiss; the first match wins.',
        items: obj('A prompt to dismiss.', { regex: nonEmpty('Regex over the viewport.'), flags: flags('Regex flags.') }, ['regex']),
      },
      key: nonEmpty('Keys that dismiss the prompt.'),
      max_attempts: count('Most dismissals (default 3).'),
      window_ms: ms('Only within this long after start (default 20000).'),
    }, ['patterns', 'key']),
    interactive_prompts: obj('Engine-implemented interactive-question protocol.', {
      scheme: { enum: ['claude_tui', 'kimi_wire'], description: 'Protocol name.' },
    }, ['scheme']),
    send_message: obj('How prompts are written (spec-format §10.2).', {
      submit_key: nonEmpty('Key written after the body, e.g. "\\r".'),
      delay_ms_before_submit: ms('Lower bound of the delay before the submit key.'),
      delay_ms_per_char: ms('If > 0, type the body one UTF-16 unit per interval.'),
      posix_bracketed_paste_for_images: bool('Wrap image-bearing prompts in bracketed paste.'),
      mid_generation_queue: bool('The CLI queues input typed while generating.'),
    }, ['submit_key']),
    sections: { type: 'object', additionalProperties: sectionDef, description: 'Named screen regions by id (declaration order matters).' },
    states: { type: 'array', minItems: 1, items: state, description: 'FSM states.' },
    transitions: { type: 'array', items: transition, description: 'FSM transitions.' },
    control_bar: {
      type: 'array',
      description: 'Buttons shown in a UI.',
      items: obj('A control (spec-format §6).', {
        id: nonEmpty('Unique control id.'),
        label: str('Button text.'),
        visible_when_state: { type: 'array', items: nonEmpty('A state id.'), description: 'Show only in these states (default: always).' },
        action,
      }, ['id', 'label', 'action']),
    },
    signal_rules: {
      type: 'array',
      description: 'Content-keyed detections (spec-format §7.3).',
      items: obj('A signal rule.', {
        id: str('Unique id.', { pattern: '^[a-z0-9][a-z0-9_]{0,63}$' }),
        kind: { enum: ['usage_limit', 'auth_error', 'rate_limit', 'service_error', 'info'], description: 'Signal kind.' },
        section: nonEmpty('Section to test (default: the viewport).'),
        pattern: str('Regex (≤ 200 chars); named groups become params.', { minLength: 1, maxLength: 200 }),
        flags: str('Only "i" and "g" ("g" is stripped).', { pattern: '^(?!.*(.).*\\1)[ig]*$' }),
        multiline: bool('Test the whole text instead of each line.'),
        cooldown_ms: ms('Suppress repeats within this long (default 60000).'),
      }, ['id', 'kind', 'pattern']),
    },
    background_work: {
      type: 'array',
      description: 'specterm extension: rows of the live screen that say the agent\'s own shells or sub-agents still run (spec-format "Background work").',
      items: obj('A kind of background work.', {
        id: str('Short snake_case name of the kind, e.g. "shell".', { pattern: '^[a-z0-9][a-z0-9_]{0,63}$' }),
        pattern: nonEmpty('Regex tested on each row of the section; a matching row counts one, or the number its count_group captured.'),
        flags: str('Regex flags (default none; not "g" or "y").', { pattern: '^(?!.*(.).*\\1)(?!.*u.*v)(?!.*v.*u)[dimsuv]*$' }),
        section: nonEmpty('Section to read (default: the viewport).'),
        count_group: count('Capture group holding the number of items the row stands for.', 1),
        noun: nonEmpty('What one item is called, e.g. "background shell" (default "background <id>").'),
      }, ['id', 'pattern']),
    },
    notifications: {
      type: 'array',
      description: 'State-keyed notifications (spec-format §7.1).',
      items: obj('A notification.', {
        id: nonEmpty('Unique id.'),
        when_state: nonEmpty('State id that triggers it.'),
        title: str('Title.'),
        body: str('Body; "{state.title}" is replaced.'),
      }, ['id', 'when_state', 'title']),
    },
    delegate: {
      type: 'array',
      description: 'State-keyed delayed delegate events (spec-format §7.2).',
      items: obj('A delegate trigger.', {
        id: nonEmpty('Unique id.'),
        when_state: nonEmpty('State id that arms it.'),
        after_duration_ms: ms('Delay before it fires (default 0).'),
        task_template: str('Task text; {node}, {state.label}, {state.title}, {duration_ms} are replaced.'),
      }, ['id', 'when_state', 'task_template']),
    },
    native_history: { type: 'object', description: 'Where the CLI keeps its own transcript (not used by the FSM).' },
    requiresFinalAssistantBeforeIdle: bool('Daemon completion layer: wait for a final assistant message in the transcript.'),
    holdCompletionForTranscript: bool('Daemon completion layer: idle without a final assistant waits for the transcript.'),
  },
  dependencies: {
    refocus_when_stalled_ms: {
      required: ['send_on_spawn'],
      properties: { send_on_spawn: { type: 'array', contains: { type: 'string', minLength: 1 }, description: 'At least one non-empty wake sequence.' } },
    },
  },
  definitions: {
    condition: { description: 'A guard: a composite (all/any/not) or a leaf, classified by its keys.', anyOf: conditionKinds },
  },
};
