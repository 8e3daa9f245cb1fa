import { removeUserServer } from '../host/user-servers';
import { withTrustStore } from './add';
import type { CliIo } from './io';
import { signedOutText } from './auth';
import { signOut } from '../auth/sign-out';
import { switchyardHome } from '../config/paths';
import { createSecretStore } from '../secrets/create-secret-store';
import { messageOf } from '../../protocol/guards';

/**
 * `switchyard remove <name>`: deletes the server from config.json and forgets its launch approval
 * and tool pins (a running host stops it at once). A server from a workspace file is not removed:
 * the message says to edit that file or revoke the workspace.
 */
export async function remove(io: CliIo, argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name.startsWith('-') || rest.length > 0) {
    io.err('usage: switchyard remove <name>\n');
    return 2;
  }
  return withTrustStore(io, 'remove', async (trust, env, audit) => {
    const removed = await removeUserServer(name, { env, platform: io.platform, trust });
    audit.append({ event: 'trust', server: removed.name, decision: 'removed' });
    const pins = `${removed.pins} tool pin${removed.pins === 1 ? '' : 's'}`;
    io.out(
      `Removed '${removed.name}' from ${removed.configFile}` +
        (removed.launch ? `; forgot its launch approval and ${pins}` : `; forgot ${pins}`) +
        '. A running host stops it now.\n',
    );
    // A remote server's sign-in goes with it: a later server of that name and URL would use it.
    if (removed.remote) await forgetSignIn(io, removed.name, env);
    return 0;
  });
}

async function forgetSignIn(io: CliIo, name: string, env: NodeJS.ProcessEnv): Promise<void> {
  try {
    const home = switchyardHome(env, io.platform);
    const store = await createSecretStore({ home, platform: io.platform, env });
    const result = await signOut(store, name);
    if (result.deleted > 0) io.out(`${signedOutText(name, result)}\n`);
  } catch (error) {
    io.err(
      `switchyard remove: its sign-in could not be forgotten: ${messageOf(error)}; run 'switchyard auth ${name} --sign-out' to try again.\n`,
    );
  }
}
