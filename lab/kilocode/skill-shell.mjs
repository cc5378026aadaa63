/**
 * Kilo's skill shell permission (7.7.7): a skill's SKILL.md may hold shell injections, !`command`
 * (outside code fences and inline code). When the `skill` tool loads such a skill, Kilo's
 * SkillInject.render runs each command, but first asks the `bash` permission with the metadata
 * `skillShell: true`, which the TUI draws as its own block: `Run shell commands from skill "<name>"?`,
 * one `$ <command>` row per command, and two options, `Allow` / `Reject` (no Allow always: the
 * request's `always` list is empty).
 *
 * Only a trusted skill runs its commands: a skill under a Kilo config dir outside the project (the
 * global ~/.config/kilo/skills) or a global external dir (~/.agents/skills). A workspace skill
 * (.kilo/skills, as the /skills session writes) is untrusted: its commands are replaced with
 * `[skill shell execution disabled for untrusted skill]`, without asking. So the skill is written
 * into the private HOME before the CLI starts; `permission.bash: "ask"` (the lab's) makes it ask.
 * KILO_DISABLE_SKILL_SHELL (not set here) would replace the commands without asking too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { allowRejectSessions } from './allow-reject.mjs';

const SKILL = 'lab-shell';
/** The command the skill runs: a file in the workspace (the skill's cwd) shows whether it ran. */
const COMMAND = 'touch skill-ran.txt';
export const SKILL_SHELL = { title: `Run shell commands from skill "${SKILL}"?`, buttons: ['Allow', 'Reject'] };

/** Writes the trusted skill into the private HOME's global Kilo config dir. */
function writeHomeSkill(home) {
  const dir = path.join(home, '.config', 'kilo', 'skills', SKILL);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${SKILL}\ndescription: Stamp the workspace for the lab\n---\n\n# ${SKILL}\n\nWorkspace stamp: !\`${COMMAND}\`\n`);
}

const ran = (c) => fs.existsSync(path.join(c.work, 'skill-ran.txt'));

export const skillShellSessions = allowRejectSessions({
  name: 'skill-shell', modal: SKILL_SHELL, kind: 'skillShell', prompt: 'please run the lab shell skill', happened: ran,
  fields: { setupHome: writeHomeSkill },
  checks: { yes: 'the skill\'s command ran (skill-ran.txt exists)', no: 'the skill\'s command did not run (no skill-ran.txt)' },
  descriptions: {
    yes: `a skill tool call of a global skill whose SKILL.md runs !\`${COMMAND}\` → "Run shell commands from skill "${SKILL}"?" (the bash permission with skillShell metadata; Allow / Reject) → 1 (Allow) → the command runs → idle`,
    no: `a skill tool call of the same global skill → "Run shell commands from skill "${SKILL}"?" → 2 (Reject) → Enter on "Reject permission" → idle, the command did not run`,
  },
});
