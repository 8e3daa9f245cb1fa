/**
 * The user's login-shell PATH, recorded at install time. A browser started from the desktop
 * hands the host a bare environment (`/usr/bin:/bin`, no nvm, volta, fnm or Homebrew), so
 * `npx` and `uvx` would not be found, and would resolve to something else than in the user's
 * terminal, which `switchyard trust` fingerprinted. The installer asks the user's own shell, as
 * a login and interactive shell (where version managers hook in), with a timeout and no
 * terminal; the host puts that PATH first when it starts.
 */

export const PATH_BEGIN = '__SWITCHYARD_PATH_BEGIN__';
export const PATH_END = '__SWITCHYARD_PATH_END__';

/** The longest PATH we keep; a longer answer is garbage from a broken rc file. */
export const MAX_PATH_CHARS = 32 * 1024;

/** Prints PATH between markers, so whatever an rc file prints around it is ignored. Works in
 * sh, bash, zsh, dash, ksh and fish (fish joins a quoted `$PATH` with colons). */
export const PRINT_PATH_SCRIPT = `printf '\\n%s%s%s\\n' '${PATH_BEGIN}' "$PATH" '${PATH_END}'`;

/** The attempts, in order: login + interactive (`.bashrc`, `.zshrc`), then login only. */
export function loginShellAttempts(shell: string): string[][] {
  return [
    [shell, '-l', '-i', '-c', PRINT_PATH_SCRIPT],
    [shell, '-l', '-c', PRINT_PATH_SCRIPT],
  ];
}

/** The PATH between the markers in a shell's stdout, or null when the markers are missing. */
export function extractMarkedPath(stdout: string): string | null {
  const begin = stdout.lastIndexOf(PATH_BEGIN);
  if (begin < 0) return null;
  const start = begin + PATH_BEGIN.length;
  const end = stdout.indexOf(PATH_END, start);
  if (end < 0) return null;
  return stdout.slice(start, end);
}

/**
 * A PATH reduced to what the host may search: absolute entries only (the host never searches a
 * relative one, design D6), no line breaks, each once, in order. Null when nothing is left.
 */
export function cleanSearchPath(value: string): string | null {
  if (value.length > MAX_PATH_CHARS) return null;
  const entries = value
    .split(':')
    .filter((entry) => entry.startsWith('/') && !/[\r\n\0]/.test(entry));
  const unique = [...new Set(entries)];
  return unique.length === 0 ? null : unique.join(':');
}

/**
 * The PATH the host searches: the recorded login PATH first (so a server command resolves to
 * what the user's terminal finds, and what `switchyard trust` approved), then any entry of the
 * browser-given PATH it lacks. POSIX only.
 */
export function mergeSearchPath(recorded: string, current: string | undefined): string {
  const merged: string[] = [];
  for (const entry of [...recorded.split(':'), ...(current ?? '').split(':')]) {
    if (entry !== '' && !merged.includes(entry)) merged.push(entry);
  }
  return merged.join(':');
}

export interface RecordedPath {
  readonly value: string;
  /** Where it came from: the user's login shell, or (when that failed) the installer's PATH. */
  readonly source: 'login-shell' | 'current';
  /** The shell asked, when it answered. */
  readonly shell: string | null;
}

/** Runs one shell attempt and returns its stdout, or null on failure or timeout. Injectable. */
export type RunShell = (
  argv: readonly string[],
  options: { readonly env: NodeJS.ProcessEnv; readonly timeoutMs: number },
) => Promise<string | null>;

export interface RecordLoginPathOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
  readonly run?: RunShell;
}

const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * Asks `$SHELL` (or /bin/sh) for its login PATH; falls back to the installer's own PATH. Never
 * throws. POSIX only: Windows gives desktop apps the user's full PATH from the registry.
 */
export async function recordLoginPath(
  options: RecordLoginPathOptions,
): Promise<RecordedPath | null> {
  const { env } = options;
  const run = options.run ?? runShell;
  const shellVar = env['SHELL'];
  const shell = shellVar !== undefined && shellVar.startsWith('/') ? shellVar : '/bin/sh';
  for (const argv of loginShellAttempts(shell)) {
    const stdout = await run(argv, { env, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS });
    const marked = stdout === null ? null : extractMarkedPath(stdout);
    const cleaned = marked === null ? null : cleanSearchPath(marked);
    if (cleaned !== null) return { value: cleaned, source: 'login-shell', shell };
  }
  const current = cleanSearchPath(env['PATH'] ?? '');
  return current === null ? null : { value: current, source: 'current', shell: null };
}

const MAX_STDOUT_BYTES = 1024 * 1024;

/**
 * The production RunShell: no terminal (stdin is /dev/null, and `detached` makes a new session,
 * so an interactive shell cannot take over the installer's terminal), TERM=dumb, stdout capped,
 * and the whole process group killed at the timeout (an rc file may start background jobs).
 */
export const runShell: RunShell = (argv, { env, timeoutMs }) => {
  // Loaded here, not with the module: the host reads the recorded PATH on every start and
  // answers the browser before it needs child_process (decision 0030). Synchronously, not with
  // import(): the bundle runs from V8's code cache, where import() is not wired (decision 0033).
  const { spawn } = process.getBuiltinModule('node:child_process');
  return new Promise((resolve) => {
    const [command, ...args] = argv;
    if (command === undefined) {
      resolve(null);
      return;
    }
    let child;
    try {
      child = spawn(command, args, {
        env: { ...env, TERM: 'dumb' },
        stdio: ['ignore', 'pipe', 'ignore'],
        detached: true,
      });
    } catch {
      resolve(null);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (value: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      killGroup();
      finish(null);
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_STDOUT_BYTES) {
        killGroup();
        finish(null);
        return;
      }
      chunks.push(chunk);
    });
    child.on('error', () => {
      finish(null);
    });
    // Background jobs an rc file started must not outlive the install (and may hold stdout
    // open): once the shell exits, its group goes, and the pipe closes.
    child.on('exit', killGroup);
    child.on('close', () => {
      // The exit code does not matter (a failing logout hook sets it): the markers tell a real
      // answer.
      finish(Buffer.concat(chunks).toString('utf8'));
    });
  });
};
