import { existsSync } from 'node:fs';
import { CredentialManagerStore, powershellPath } from './credential-manager';
import { FileSecretStore } from './file-store';
import { SecretStoreError } from './keys';
import { KeychainStore, SECURITY_TOOL } from './keychain';
import { runCommand, type CommandRunner } from './run-command';
import { SecretServiceStore, probeSecretService } from './secret-service';
import type { SecretStore, SecretStoreInfo } from './secret-store';
import { findTool, toolEnv, type EnvLike } from './tool-env';
import { unknownWindowsRootMessage } from '../shared/windows-root';

/**
 * Picks where secrets live (decision 0017): the OS secret store when it is usable, otherwise
 * the 0600 file under `$SWITCHYARD_HOME`. `SWITCHYARD_SECRET_STORE` overrides the choice:
 * `file` always uses the file (tests, and users who prefer it), `os` always uses the OS store
 * (a failure is then an error, never a silent fallback), `auto` (the default) probes.
 *
 * The probe must not flap: a Secret Service that is there but slow to answer (a keyring waking
 * up) is still used, since falling back to the file for one run would leave a secret set then
 * where later runs never look. Only a definite "none" (no tool, no session bus, no service on
 * it, no default keychain) picks the file.
 */

export const SECRET_STORE_ENV = 'SWITCHYARD_SECRET_STORE';

export interface CreateSecretStoreOptions {
  /** Absolute `$SWITCHYARD_HOME` (where the file store lives). */
  readonly home: string;
  readonly platform: NodeJS.Platform;
  /** The host's environment: the override, PATH, the session bus address. */
  readonly env: EnvLike;
  /** Runs the stores' tools; tests inject a fake. */
  readonly run?: CommandRunner;
  /** Whether a file is an executable program; tests inject one. */
  readonly isExecutable?: (file: string) => boolean;
}

export async function createSecretStore(options: CreateSecretStoreOptions): Promise<SecretStore> {
  const choice = (options.env[SECRET_STORE_ENV] ?? 'auto').trim().toLowerCase() || 'auto';
  if (choice !== 'auto' && choice !== 'file' && choice !== 'os') {
    throw new SecretStoreError(
      `${SECRET_STORE_ENV} is '${choice.slice(0, 40)}'; it can be 'auto' (the default: the OS secret store when there is one), 'os' or 'file'.`,
    );
  }
  const file = new FileSecretStore({ home: options.home, platform: options.platform });
  if (choice === 'file') return withNote(file, `${SECRET_STORE_ENV}=file`);
  const os = await osStore(options);
  if (os.store) return os.note === undefined ? os.store : withNote(os.store, os.note);
  if (choice === 'os') {
    throw new SecretStoreError(
      `${SECRET_STORE_ENV}=os, but the OS secret store cannot be used: ${os.note}.`,
    );
  }
  return withNote(file, `no OS secret store: ${os.note}`);
}

type OsChoice =
  | { readonly store: SecretStore; readonly note?: string }
  | { readonly store?: undefined; readonly note: string };

async function osStore(options: CreateSecretStoreOptions): Promise<OsChoice> {
  const tools: ToolContext = {
    run: options.run ?? runCommand,
    env: toolEnv(options.env),
    exists: options.isExecutable ?? existsSync,
  };
  if (options.platform === 'darwin') return keychainChoice(tools);
  if (options.platform === 'win32') return credentialManagerChoice(tools, options.env);
  return secretServiceChoice(tools, options.env, options.isExecutable);
}

interface ToolContext {
  readonly run: CommandRunner;
  readonly env: Record<string, string>;
  readonly exists: (file: string) => boolean;
}

/** The login keychain, when `security` finds a default keychain (a CI user may have none). */
async function keychainChoice({ run, env, exists }: ToolContext): Promise<OsChoice> {
  if (!exists(SECURITY_TOOL)) return { note: `${SECURITY_TOOL} was not found` };
  try {
    const result = await run({
      command: SECURITY_TOOL,
      args: ['default-keychain'],
      env,
      timeoutMs: 5_000,
      detached: true,
    });
    if (result.code !== 0) {
      return { note: 'there is no default keychain (security default-keychain failed)' };
    }
  } catch (error) {
    if (!(error instanceof SecretStoreError) || !/did not answer/.test(error.message)) {
      return { note: `security could not be run (${String(error)})` };
    }
  }
  return { store: new KeychainStore({ run, env }) };
}

/** The Credential Manager, which every interactive Windows user has; not probed (~1 s a call). */
function credentialManagerChoice({ run, env, exists }: ToolContext, hostEnv: EnvLike): OsChoice {
  const shell = powershellPath(hostEnv);
  if (shell === null) return { note: unknownWindowsRootMessage('powershell.exe', hostEnv) };
  if (!exists(shell)) return { note: `${shell} was not found` };
  return { store: new CredentialManagerStore({ run, env }) };
}

/** The Secret Service: secret-tool present and a service answering on the session bus. */
async function secretServiceChoice(
  { run, env }: ToolContext,
  hostEnv: EnvLike,
  isExecutable: ((file: string) => boolean) | undefined,
): Promise<OsChoice> {
  const tool = findTool(
    'secret-tool',
    hostEnv,
    ['/usr/bin', '/bin', '/usr/local/bin'],
    isExecutable,
  );
  if (tool === undefined) {
    return {
      note: 'secret-tool was not found (install libsecret-tools to use the Secret Service)',
    };
  }
  const probe = await probeSecretService({ tool, run, env });
  if (probe.ok) return { store: new SecretServiceStore({ tool, run, env }) };
  if (probe.timedOut) {
    return {
      store: new SecretServiceStore({ tool, run, env }),
      note: `the Secret Service was slow to answer (${probe.why}); it is used all the same`,
    };
  }
  return { note: `no Secret Service on the session bus (${probe.why})` };
}

/** `store` with `note` in its info. */
function withNote(store: SecretStore, note: string): SecretStore {
  const info: SecretStoreInfo = { ...store.info, note };
  return {
    info,
    get: (key) => store.get(key),
    set: (key, value) => store.set(key, value),
    delete: (key) => store.delete(key),
    list: (prefix) => store.list(prefix),
  };
}
