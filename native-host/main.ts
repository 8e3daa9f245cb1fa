import { processIo, type CliIo } from './cli/io';
import { HOST_VERSION } from './shared/version';

// Entry point of the bundled host: `switchyard <command>`. Wiring only.

const USAGE = `Switchyard ${HOST_VERSION}: use the MCP servers on your machine from your browser's AI agent.

Usage: switchyard <command>

  doctor [--json]                  check the configuration and every server, with fixes
  tools [--server NAME] [--json]   list the namespaced tools the model sees, with token costs
  call <tool> ['<json>'] [--yes]   call one tool, e.g. switchyard call memory__read_graph '{}'
  trust [<server>...|--all] [--yes]
                                   review and approve servers waiting to run (launch trust)
  revoke <server> | --workspace <folder>
                                   withdraw an approval: the server asks before it runs again
  add <name> [--env K=V]... [--cwd DIR] [--replace] -- <command> [args...]
  add <name> --url URL [--type http|sse] [--header K=V]... [--replace]
                                   add a server (a local command, or a remote one by its
                                   URL) to config.json, approved to run as written
  remove <name>                    remove a server from config.json and forget its approval
  auth <name> [--no-open] | auth <name> --sign-out | auth --status [--json]
                                   sign in to a remote server (OAuth, in your browser), sign
                                   out (revokes, deletes the tokens), or list who is signed in
  oauth-client-metadata <url> [--extension-id ID]... [--redirect-uri URI]...
                                   print the OAuth client ID metadata document to publish at
                                   <url> for "oauthClientMetadataUrl" (docs/security.md)
  logs <name> [--lines N]          the last lines a server wrote to stderr (secrets redacted)
  secret set NAME | list [--json] | delete NAME
                                   values for \${NAME} in servers' env, kept in the OS secret
                                   store (or a 0600 file); set reads the value from stdin
  activity [--server NAME] [--event KIND]... [--limit N] [--json]
                                   what ran and who decided, newest first (from audit.jsonl)
  import [--from CLIENT]... [--file PATH --format CLIENT] [--rename] [--dry-run] [--yes]
                                   add servers from Claude Desktop, Claude Code, Cursor, VS Code,
                                   Windsurf, Codex or Zed (preview first; see docs/import.md)
  install [--browser NAME]... [--user-data-dir DIR] [--extension-id ID]... [--dry-run] [--json]
                                   register the host with your browsers (chrome, chromium,
                                   edge, brave, vivaldi, firefox; detected when not named)
  uninstall [--browser NAME]... [--user-data-dir DIR] [--dry-run] [--json]
                                   remove exactly what install wrote (all browsers and
                                   profiles by default; takes install's flags)
  host <caller>                    the native-messaging host (started by the browser)
  version                          print the version

State lives in $SWITCHYARD_HOME (default: ~/.config/switchyard on Linux,
~/Library/Application Support/Switchyard on macOS, %APPDATA%\\Switchyard on Windows).
`;

type Command = (io: CliIo, args: readonly string[]) => Promise<number>;

// Each command is loaded when it runs: the host (the browser's, on every start) loads none of
// the CLI's code, nor import, the installers or sign-in (decision 0022).
const commands: Readonly<Record<string, Command>> = {
  host: async (io, args) => (await import('./cli/host-command')).hostCommand(io, args),
  doctor: async (io, args) => (await import('./cli/doctor')).doctor(io, args),
  tools: async (io, args) => (await import('./cli/tools')).tools(io, args),
  call: async (io, args) => (await import('./cli/call')).call(io, args),
  trust: async (io, args) => (await import('./cli/trust')).trust(io, args),
  revoke: async (io, args) => (await import('./cli/trust')).revoke(io, args),
  add: async (io, args) => (await import('./cli/add')).add(io, args),
  remove: async (io, args) => (await import('./cli/remove')).remove(io, args),
  auth: async (io, args) => {
    const [{ authCommand }, { authDeps }] = await Promise.all([
      import('./cli/auth'),
      import('./cli/auth-deps'),
    ]);
    return authCommand(io, args, authDeps(io));
  },
  logs: async (io, args) => (await import('./cli/logs')).logs(io, args),
  'oauth-client-metadata': async (io, args) =>
    (await import('./cli/oauth-client-metadata')).oauthClientMetadata(io, args),
  secret: async (io, args) => (await import('./cli/secret')).secret(io, args),
  activity: async (io, args) => (await import('./cli/activity')).activity(io, args),
  import: async (io, args) => (await import('./cli/import')).importCommand(io, args),
  install: async (io, args) => (await import('./cli/install')).install(io, args),
  uninstall: async (io, args) => (await import('./cli/install-uninstall')).uninstall(io, args),
  version: (io) => {
    io.out(`${HOST_VERSION}\n`);
    return Promise.resolve(0);
  },
  help: (io) => {
    io.out(USAGE);
    return Promise.resolve(0);
  },
};

async function main(argv: readonly string[]): Promise<number> {
  const [name = 'help', ...args] = argv;
  const aliases: Readonly<Record<string, string>> = {
    '--help': 'help',
    '-h': 'help',
    '--version': 'version',
  };
  const resolved = aliases[name] ?? name;
  const command = Object.hasOwn(commands, resolved) ? commands[resolved] : undefined;
  if (!command) {
    processIo.err(`switchyard: unknown command '${name}'\n\n${USAGE}`);
    return 2;
  }
  return command(processIo, args);
}

main(process.argv.slice(2)).then(
  (code) => {
    // The host exits itself once stdout has drained; every other command exits here.
    if (process.argv[2] !== 'host') process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `switchyard: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
