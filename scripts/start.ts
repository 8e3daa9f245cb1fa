// `npm start`: the main job (issue 6). npm has built everything first. This sets up the demo
// (two reference MCP servers, added and approved with `switchyard add`, and a Demo profile) in
// .tmp/, then, with a display, installs the host for a dedicated browser profile and opens a
// Chromium-family browser on it with the extension loaded; without one (or with --headless) it
// runs the headless self-check against the real host. The decisions are pure modules in
// scripts/start/ with tests beside them; this file only wires them to the machine.
import { accessSync, constants, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { formatCommandLine } from '../protocol/argv';
import { START_USAGE, parseStartArgs } from './start/args';
import { BROWSER_KIND_INFO } from './start/browsers';
import {
  demoProfile,
  demoServerEntries,
  demoServerArgs,
  prepareDemo,
  runSwitchyard,
  startLayout,
  type StartLayout,
} from './start/demo';
import { browserEnvironment, launchDetached, logTail, snapshotExtension } from './start/launch';
import {
  dryRunBrowserText,
  headlessReasonText,
  openedText,
  ownBrowserText,
  shown,
} from './start/messages';
import { planStart, type StartPlan } from './start/plan';
import { runSelfCheck } from './start/self-check';

const print = (text = ''): void => {
  console.log(text);
};

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (process.platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseStartArgs(argv);
  if (!parsed.ok) {
    console.error(parsed.message);
    return 2;
  }
  const { options } = parsed;
  if (options.help) {
    print(START_USAGE);
    return 0;
  }
  const layout = startLayout(path.resolve(import.meta.dirname, '..'));
  const plan = planStart(
    {
      options,
      platform: process.platform,
      env: process.env,
      homedir: os.homedir(),
      uid: process.getuid?.() ?? null,
      layout,
    },
    isExecutable,
  );
  if (options.dryRun) return dryRun(plan, layout);
  if (plan.kind === 'bad-browser') {
    console.error(plan.problem);
    return 1;
  }

  await prepareDemo(layout);
  print('Switchyard demo');
  print(
    `  servers  files (the reference filesystem server on ${shown(layout, layout.files)}) and memory,`,
  );
  print("           added with 'switchyard add', which approves exactly what they run");
  print("  profile  Demo, on the demo folder's pages: reading runs at once, changes ask,");
  print('           overwriting and deleting are hidden');
  print(
    `  home     ${shown(layout, layout.home)} (SWITCHYARD_HOME: your own settings are not touched)`,
  );
  print();

  switch (plan.kind) {
    case 'headless':
      return headless(layout, headlessReasonText(plan.reason, process.platform));
    case 'browser':
      return openBrowser(plan, layout);
  }
}

async function headless(layout: StartLayout, why: string): Promise<number> {
  print(`Headless self-check (${why})`);
  const passed = await runSelfCheck(layout, print);
  print(`\nSelf-check ${passed ? 'passed' : 'FAILED'}.\n`);
  print(ownBrowserText(layout));
  return passed ? 0 : 1;
}

const InstallResultSchema = z.object({
  ok: z.boolean(),
  browsers: z.array(z.object({ manifestPath: z.string() })),
});

async function openBrowser(
  plan: Extract<StartPlan, { kind: 'browser' }>,
  layout: StartLayout,
): Promise<number> {
  const info = BROWSER_KIND_INFO[plan.browser.kind];
  const installed = InstallResultSchema.parse(
    JSON.parse(runSwitchyard(layout, plan.installArgs)) as unknown,
  );
  for (const browser of installed.browsers) {
    print(`Host manifest written: ${shown(layout, browser.manifestPath)}`);
  }
  snapshotExtension(layout.extensionSource, layout.extensionDir);
  const outcome = await launchDetached(plan.browser.executable, plan.args, {
    env: browserEnvironment(process.env),
    cwd: layout.root,
    logFile: layout.browserLog,
  });
  if (outcome.kind === 'failed') {
    const tail = logTail(layout.browserLog);
    print(`Could not open ${info.displayName} (${plan.browser.executable}): ${outcome.message}.`);
    if (tail !== '') print(tail.replace(/^/gm, '  | '));
    print('Running the headless self-check instead (npm start -- --headless skips the browser).\n');
    return headless(layout, `${info.displayName} did not start`);
  }
  print(`\n${openedText(plan, layout, outcome)}`);
  return 0;
}

function dryRun(plan: StartPlan, layout: StartLayout): number {
  print('Dry run: nothing is written, installed or launched.\n');
  if (plan.kind === 'bad-browser') {
    print(plan.problem);
    return 1;
  }
  print(`Would set up the demo in ${layout.home} (SWITCHYARD_HOME):`);
  for (const server of demoServerArgs(layout, process.execPath, demoServerEntries(layout.root))) {
    print(`  switchyard ${formatCommandLine(server.args)}`);
  }
  print(`  the Demo profile in config.json: ${JSON.stringify(demoProfile(layout))}`);
  print();
  switch (plan.kind) {
    case 'headless':
      print(
        `Would run the headless self-check (${headlessReasonText(plan.reason, process.platform)}).`,
      );
      for (const searched of plan.searched) print(`  looked for ${searched}`);
      return 0;
    case 'browser':
      print(dryRunBrowserText(plan, layout));
      return 0;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
