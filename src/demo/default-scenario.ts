/**
 * The bundled default scenario, embedded so the built program runs from `dist/` alone
 * (tsc does not copy JSON next to the output, and importing JSON prints an experimental
 * warning on Node 20). `scenarios/default.json` is the same data for people to copy and
 * edit; `default-scenario.test.ts` fails if the two drift apart.
 * @module
 */

/** The raw default scenario (validated by `parseScenario` like any other file). */
export const DEFAULT_SCENARIO_JSON: unknown = {
  "_note": "The bundled Demo Agent scenario. Rules are tried in order; the first whose regex matches the message runs; the last rule (no match) is the default. Keep in sync with src/demo/default-scenario.ts (a test enforces it).",
  "model": "demo-sonnet",
  "models": [
    {
      "name": "demo-sonnet",
      "description": "Balanced for everyday tasks"
    },
    {
      "name": "demo-opus",
      "description": "Most capable, slower"
    },
    {
      "name": "demo-haiku",
      "description": "Fastest answers"
    }
  ],
  "verbs": [
    "Thinking",
    "Pondering",
    "Cogitating",
    "Noodling",
    "Brewing"
  ],
  "rules": [
    {
      "match": "\\btests?\\b",
      "steps": [
        {
          "think_ms": 1200
        },
        {
          "say": "I'll run the test suite to see where things stand.",
          "wpm": 600
        },
        {
          "tool": "Bash",
          "command": "npm test",
          "description": "Run the test suite",
          "approval": true,
          "run_ms": 1500,
          "output": [
            "> demo-project@1.0.0 test",
            "> vitest run",
            "",
            " ✓ src/math.test.ts (4 tests) 3ms",
            " ✓ src/strings.test.ts (8 tests) 5ms",
            "",
            " Test Files  2 passed (2)",
            "      Tests  12 passed (12)"
          ]
        },
        {
          "think_ms": 800
        },
        {
          "say": "All 12 tests pass across 2 files. Nothing to fix right now.",
          "wpm": 600
        }
      ]
    },
    {
      "match": "\\b(hello|hi|hey)\\b",
      "steps": [
        {
          "think_ms": 800
        },
        {
          "say": "Hello! I'm Demo Agent, a scripted stand-in for a coding assistant. Ask me to run the tests, or type /model to switch models.",
          "wpm": 900
        }
      ]
    },
    {
      "match": "\\blong\\b",
      "steps": [
        {
          "think_ms": 1000,
          "verb": "Pondering"
        },
        {
          "say": "Here is a longer answer so you can watch the screen scroll. A terminal agent streams its reply word by word while a spinner line below it shows the elapsed time and a token counter; when a paragraph is finished it becomes part of the transcript above the input box and never changes again.",
          "wpm": 1800
        },
        {
          "say": "The state machine that reads this screen looks for three landmarks: the spinner line with esc to interrupt, which means the agent is busy; a bordered modal with numbered choices, which means it waits for approval; and the input box with its hint line, which means it is idle.",
          "wpm": 1800
        },
        {
          "say": "Scrolling matters because a real agent's answer rarely fits on one screen. Old lines move into the scrollback, the input box stays at the bottom, and a reader that only looks at the visible rows must still find the input box and the spinner there.",
          "wpm": 1800
        },
        {
          "say": "Timing matters too: the spinner repaints about ten times a second, so a screen that keeps changing is a busy screen, and a screen that has been still for a moment, with the spinner gone, is an idle one.",
          "wpm": 1800
        },
        {
          "say": "That is the end of the long answer. Try run the tests next to see an approval prompt.",
          "wpm": 1800
        }
      ]
    },
    {
      "match": "\\b(fail|error|429)\\b",
      "steps": [
        {
          "think_ms": 900
        },
        {
          "error": "429 rate limited (retry in 30s)"
        }
      ]
    },
    {
      "steps": [
        {
          "think_ms": 1000
        },
        {
          "say": "Got it. This is a scripted demo, so I can't really work on that, but I can show you how an agent looks while it answers: a spinner with elapsed time and tokens, a streamed reply, and then a short summary of how long the turn took.",
          "wpm": 900
        }
      ]
    }
  ]
};
