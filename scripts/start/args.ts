/**
 * `npm start -- [options]`: the few switches of scripts/start.ts. Pure, so its table is tested.
 */

export interface StartOptions {
  /** Run the headless self-check even when a display is available. */
  readonly headless: boolean;
  /** Print what would be written, installed and launched; do nothing. */
  readonly dryRun: boolean;
  readonly help: boolean;
}

export type StartArgs =
  | { readonly ok: true; readonly options: StartOptions }
  | { readonly ok: false; readonly message: string };

export const START_USAGE = `usage: npm start [-- --headless] [-- --dry-run]

  (no option)  with a display: open a Chromium-family browser on a dedicated profile with the
               extension loaded and the demo servers ready; without one: the headless self-check
  --headless   run the headless self-check even when a display is available
  --dry-run    print what would be written, installed and launched, and do nothing
  --help       this text

  SWITCHYARD_BROWSER=/path/to/browser picks the browser (Chromium, Edge, Brave, Vivaldi, Chrome).
`;

export function parseStartArgs(argv: readonly string[]): StartArgs {
  let headless = false;
  let dryRun = false;
  let help = false;
  for (const arg of argv) {
    switch (arg) {
      case '--headless':
        headless = true;
        break;
      case '--dry-run':
      case '-n':
        dryRun = true;
        break;
      case '--help':
      case '-h':
        help = true;
        break;
      default:
        return { ok: false, message: `npm start: unknown option '${arg}'\n${START_USAGE}` };
    }
  }
  return { ok: true, options: { headless, dryRun, help } };
}
