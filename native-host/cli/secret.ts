import { mkdirSync } from 'node:fs';
import { messageOf } from '../../protocol/guards';
import { switchyardHome } from '../config/paths';
import { createSecretStore } from '../secrets/create-secret-store';
import { VARIABLE_PREFIX, isVariableName, variableKey } from '../secrets/keys';
import type { SecretStore } from '../secrets/secret-store';
import type { CliIo } from './io';
import {
  MAX_SECRET_VALUE_BYTES,
  processInput,
  valueFromStdin,
  type SecretInput,
} from './secret-input';

/**
 * `switchyard secret set NAME | list [--json] | delete NAME`: the values `${NAME}` references
 * get when the environment does not set them (config/variables.ts), kept in the OS secret store
 * or the 0600 file (decision 0017). A value is read from stdin or the terminal, never the argv,
 * and never printed: `list` shows names only.
 */

export const SECRET_USAGE = `usage: switchyard secret set NAME      the value is read from stdin, or typed without echo
       switchyard secret list [--json]  the names of the variables set (never their values)
       switchyard secret delete NAME
`;

export type SecretArgs =
  | { readonly ok: true; readonly op: 'set' | 'delete'; readonly name: string }
  | { readonly ok: true; readonly op: 'list'; readonly json: boolean }
  | { readonly ok: false; readonly error: string };

/** Parses the arguments without I/O. A value on the command line is refused, with why. */
export function parseSecretArgs(argv: readonly string[]): SecretArgs {
  const [op, ...rest] = argv;
  if (op === 'list') {
    const unknown = rest.find((a) => a !== '--json');
    if (unknown !== undefined)
      return { ok: false, error: `unknown argument '${unknown.slice(0, 100)}'` };
    return { ok: true, op, json: rest.includes('--json') };
  }
  if (op !== 'set' && op !== 'delete') {
    return {
      ok: false,
      error:
        op === undefined
          ? 'say what to do: set, list or delete'
          : `unknown subcommand '${op.slice(0, 100)}'`,
    };
  }
  const [name, ...extra] = rest;
  if (name === undefined)
    return { ok: false, error: `name the variable, e.g. switchyard secret ${op} GITHUB_TOKEN` };
  if (name.includes('=')) {
    return {
      ok: false,
      error: `give the value on stdin, not on the command line (where ps and your shell's history see it): switchyard secret set ${name.split('=')[0]?.slice(0, 100) ?? ''}`,
    };
  }
  if (!isVariableName(name)) {
    return {
      ok: false,
      error: `'${name.slice(0, 100)}' is not a variable name: letters, digits and '_', not starting with a digit (e.g. GITHUB_TOKEN)`,
    };
  }
  if (extra.length > 0) {
    return op === 'set'
      ? {
          ok: false,
          error: `give the value on stdin, not on the command line (where ps and your shell's history see it): printf '%s' "$TOKEN" | switchyard secret set ${name}`,
        }
      : { ok: false, error: `unknown argument '${(extra[0] ?? '').slice(0, 100)}'` };
  }
  return { ok: true, op, name };
}

export async function secret(
  io: CliIo,
  argv: readonly string[],
  input: SecretInput = processInput,
): Promise<number> {
  const parsed = parseSecretArgs(argv);
  if (!parsed.ok) {
    io.err(`switchyard secret: ${parsed.error}\n${SECRET_USAGE}`);
    return 2;
  }
  let store: SecretStore;
  try {
    const home = switchyardHome(io.env, io.platform);
    mkdirSync(home, { recursive: true, mode: 0o700 });
    store = await createSecretStore({ home, platform: io.platform, env: io.env });
  } catch (error) {
    io.err(`switchyard secret: ${messageOf(error)}\n`);
    return 1;
  }
  try {
    switch (parsed.op) {
      case 'list':
        return await list(io, store, parsed.json);
      case 'set':
        return await set(io, store, parsed.name, input);
      case 'delete':
        return await remove(io, store, parsed.name);
    }
  } catch (error) {
    io.err(`switchyard secret: ${messageOf(error)}\n`);
    return 1;
  }
}

async function list(io: CliIo, store: SecretStore, json: boolean): Promise<number> {
  const names = (await store.list(VARIABLE_PREFIX)).map((key) => key.slice(VARIABLE_PREFIX.length));
  if (json) {
    io.out(`${JSON.stringify({ store: store.info, names }, null, 2)}\n`);
    return 0;
  }
  io.err(`Variables in ${store.info.where}:\n`);
  if (names.length === 0) io.err('  (none; add one with: switchyard secret set NAME)\n');
  io.out(names.map((name) => `${name}\n`).join(''));
  return 0;
}

async function set(
  io: CliIo,
  store: SecretStore,
  name: string,
  input: SecretInput,
): Promise<number> {
  let value: string | undefined;
  if (input.isTTY) {
    value = await input.readHidden(`Value for ${name} (not shown): `);
    if (value === undefined) {
      io.err('switchyard secret: cancelled; nothing was stored.\n');
      return 1;
    }
  } else {
    const bytes = await input.readAll(MAX_SECRET_VALUE_BYTES);
    if (bytes.length > MAX_SECRET_VALUE_BYTES) {
      io.err(
        `switchyard secret: the value is longer than ${MAX_SECRET_VALUE_BYTES} bytes; nothing was stored.\n`,
      );
      return 1;
    }
    value = valueFromStdin(bytes);
  }
  if (Buffer.byteLength(value) > MAX_SECRET_VALUE_BYTES) {
    io.err(
      `switchyard secret: the value is longer than ${MAX_SECRET_VALUE_BYTES} bytes; nothing was stored.\n`,
    );
    return 1;
  }
  if (value === '') {
    io.err(
      `switchyard secret: the value is empty; nothing was stored (to remove ${name}, run switchyard secret delete ${name}).\n`,
    );
    return 1;
  }
  if (value.includes('\u0000')) {
    io.err(
      'switchyard secret: the value contains a NUL character, which no environment variable can hold; nothing was stored.\n',
    );
    return 1;
  }
  await store.set(variableKey(name), value);
  io.out(
    `Stored ${name} in ${store.info.where}. Servers whose env refers to \${${name}} get it when they next start (an exported ${name} still wins).\n`,
  );
  return 0;
}

async function remove(io: CliIo, store: SecretStore, name: string): Promise<number> {
  if (!(await store.delete(variableKey(name)))) {
    io.err(`switchyard secret: ${name} is not set in ${store.info.where}.\n`);
    return 1;
  }
  io.out(`Deleted ${name} from ${store.info.where}.\n`);
  return 0;
}
