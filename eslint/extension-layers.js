// @ts-check
/**
 * The extension's layers point one way (house style, habit 12), and this says so:
 *
 *   ui/ ──► messaging/ ◄── background/
 *
 * `messaging/` is the page <-> worker vocabulary both sides share; pages never reach into the
 * worker, and the worker never into pages. Flat config replaces, not merges, a rule configured
 * again for the same files, so each folder's entry repeats the base patterns of every extension
 * file (no Node APIs, no host code).
 */

/** @typedef {{ group: string[]; message: string }} Pattern */

/** @type {Pattern[]} */
const base = [
  { group: ['node:*'], message: 'Extension code runs in the browser: no Node APIs.' },
  { group: ['**/native-host/*'], message: 'Talk to the host over the native port.' },
];

/** @type {{ uiToBackground: Pattern; messagingToBackground: Pattern; messagingToUi: Pattern; testingToSides: Pattern; backgroundToUi: Pattern }} */
const layer = {
  uiToBackground: {
    group: ['**/background/**', '**/background'],
    message:
      'ui/ never imports background/: the page <-> worker vocabulary lives in messaging/; talk to the worker through messaging/page-client.',
  },
  messagingToBackground: {
    group: ['**/background/**', '**/background'],
    message:
      'messaging/ is the vocabulary both sides share: it imports neither side. Move the type the worker and the pages both need into messaging/, and import it from there in background/.',
  },
  messagingToUi: {
    group: ['**/ui/**', '**/ui'],
    message:
      'messaging/ is the vocabulary both sides share: it imports neither side. Move what pages and the worker both need into messaging/.',
  },
  testingToSides: {
    group: ['**/background/**', '**/background', '**/ui/**', '**/ui'],
    message:
      "extension/testing/ holds fixtures both sides' tests use: it imports neither side. A fixture for one side belongs in that side's own testing/ folder.",
  },
  backgroundToUi: {
    group: ['**/ui/**', '**/ui'],
    message:
      'background/ never imports ui/: the worker pushes PageEvents (messaging/ui-protocol.ts) and pages draw them. Put shared vocabulary in messaging/.',
  },
};

/**
 * @param {string[]} files
 * @param {Pattern[]} patterns
 * @returns {import('eslint').Linter.Config}
 */
function restrict(files, patterns) {
  return {
    files,
    rules: { 'no-restricted-imports': ['error', { patterns: [...base, ...patterns] }] },
  };
}

/** @type {import('eslint').Linter.Config[]} */
export default [
  restrict(['extension/ui/**/*.ts', 'extension/ui/**/*.tsx'], [layer.uiToBackground]),
  restrict(
    ['extension/messaging/**/*.ts', 'extension/messaging/**/*.tsx'],
    [layer.messagingToBackground, layer.messagingToUi],
  ),
  restrict(
    ['extension/background/**/*.ts', 'extension/background/**/*.tsx'],
    [layer.backgroundToUi],
  ),
  restrict(['extension/testing/**/*.ts'], [layer.testingToSides]),
];
