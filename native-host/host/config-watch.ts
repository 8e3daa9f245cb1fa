import fs from 'node:fs';
import path from 'node:path';

/**
 * Watches one configuration file (config.json, or a workspace's `.mcp.json` or
 * `.vscode/mcp.json`) for changes and calls `onChange` once per burst of events. It watches the
 * folder, not the file: editors save by writing a temporary file and renaming it over the old
 * one (as does Switchyard's own writer), which a watch on the file itself stops following after
 * the first save. A folder that does not exist yet (a fresh install before `switchyard add`), or
 * a watch that fails, is retried every `retryMs`; once the watch is (re)established `onChange`
 * fires, since the file may have changed while nobody watched. Never keeps the process alive.
 */

/** How long a burst of events must be quiet before `onChange` (an editor's save is several). */
export const CONFIG_DEBOUNCE_MS = 150;
/** How often a missing folder or a failed watch is tried again. */
export const CONFIG_WATCH_RETRY_MS = 2_000;

export interface ConfigWatchOptions {
  /** Absolute path of the file. */
  readonly file: string;
  readonly onChange: () => void;
  readonly debounceMs?: number;
  readonly retryMs?: number;
  /** `fs.watch`, injectable for tests. */
  readonly watch?: (
    folder: string,
    listener: (event: string, filename: string | null) => void,
  ) => fs.FSWatcher;
}

export interface ConfigWatch {
  close(): void;
}

const defaultWatch = (
  folder: string,
  listener: (event: string, filename: string | null) => void,
): fs.FSWatcher => fs.watch(folder, { persistent: false }, listener);

/**
 * Also follows a file that is a symbolic link (a dotfiles manager's config.json): the link's
 * folder sees the link replaced, but an edit of the file it points to happens in another folder,
 * so that folder is watched too, for the target's name. The target is looked up again at every
 * change, so a link pointed elsewhere is followed there.
 */
export function watchConfigFile(options: ConfigWatchOptions): ConfigWatch {
  let target: { readonly file: string; readonly watch: ConfigWatch } | undefined;
  const follow = (): void => {
    const real = linkTarget(options.file);
    if (real === target?.file) return;
    target?.watch.close();
    target =
      real === undefined
        ? undefined
        : { file: real, watch: watchOneFile({ ...options, file: real, onChange: changed }) };
  };
  const changed = (): void => {
    follow();
    options.onChange();
  };
  const own = watchOneFile({ ...options, onChange: changed });
  follow();
  return {
    close: () => {
      own.close();
      target?.watch.close();
      target = undefined;
    },
  };
}

/** Where the symbolic link at `file` ends, when it is one and that resolves; else undefined. */
function linkTarget(file: string): string | undefined {
  try {
    if (!fs.lstatSync(file).isSymbolicLink()) return undefined;
    const real = fs.realpathSync(file);
    return real === file ? undefined : real;
  } catch {
    return undefined; // no file yet, or a dangling link: the link's own folder is watched
  }
}

function watchOneFile(options: ConfigWatchOptions): ConfigWatch {
  const folder = path.dirname(options.file);
  const name = path.basename(options.file);
  const debounceMs = options.debounceMs ?? CONFIG_DEBOUNCE_MS;
  const retryMs = options.retryMs ?? CONFIG_WATCH_RETRY_MS;
  const watch = options.watch ?? defaultWatch;
  let watcher: fs.FSWatcher | undefined;
  let debounce: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const changed = (): void => {
    if (closed) return;
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      if (!closed) options.onChange();
    }, debounceMs);
    debounce.unref();
  };

  const start = (afterFailure: boolean): void => {
    retry = undefined;
    if (closed) return;
    try {
      watcher = watch(folder, (_event, filename) => {
        // The folder itself went (a branch checked out without `.vscode`): Linux reports that as
        // an event, not an error, and the watch would follow nothing from then on. Watch again
        // once it is back, which reports the file then.
        if (!fs.existsSync(folder)) {
          watcher?.close();
          watcher = undefined;
          changed();
          retryLater();
          return;
        }
        // Some platforms omit the name; then any change in the folder may be ours.
        if (filename === null || filename === name) changed();
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined;
        retryLater();
      });
      if (afterFailure) changed();
    } catch {
      retryLater();
    }
  };

  const retryLater = (): void => {
    if (closed || retry !== undefined) return;
    retry = setTimeout(() => {
      start(true);
    }, retryMs);
    retry.unref();
  };

  start(false);
  return {
    close: () => {
      closed = true;
      clearTimeout(debounce);
      clearTimeout(retry);
      watcher?.close();
      watcher = undefined;
    },
  };
}
