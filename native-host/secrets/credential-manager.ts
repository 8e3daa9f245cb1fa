import path from 'node:path';
import { unknownWindowsRootMessage, windowsRoot } from '../shared/windows-root';
import { SecretStoreError, checkKey, keyProblem } from './keys';
import { firstLine, type CommandRunner } from './run-command';
import type { SecretStore, SecretStoreInfo } from './secret-store';

/**
 * Secrets in the Windows Credential Manager (generic credentials named `switchyard:<key>`,
 * persisted per user on this machine) through Windows PowerShell 5.1, which every Windows 10/11
 * has, with a small P/Invoke of advapi32's CredReadW, CredWriteW, CredDeleteW and
 * CredEnumerateW: no module to install, no native addon in the bundle.
 *
 * The script is fixed text passed as `-EncodedCommand` (base64 UTF-16LE, so no quoting rules of
 * the Windows command line apply); the request (operation, target, value) travels on stdin as
 * base64 lines, and the answer comes back as base64 lines: nothing a value contains can reach the
 * argv or be mistaken for part of the answer. Each call compiles the P/Invoke (about a second).
 */

export const POWERSHELL_TIMEOUT_MS = 30_000;
/** CRED_MAX_CREDENTIAL_BLOB_SIZE: 5 * 512 bytes. */
export const MAX_CREDENTIAL_BLOB_BYTES = 2_560;
const TARGET_PREFIX = 'switchyard:';

export interface CredentialManagerOptions {
  readonly run: CommandRunner;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

const POWERSHELL = 'powershell.exe';

/**
 * `%SystemRoot%\System32\WindowsPowerShell\v1.0\powershell.exe`, never a PATH lookup; null when
 * SystemRoot is not a plain absolute Windows folder (`windowsRoot`): a relative one would run a
 * `powershell.exe` from the current folder, with the secrets on its stdin.
 */
export function powershellPath(env: Readonly<Record<string, string | undefined>>): string | null {
  const root = windowsRoot(env);
  return root === null
    ? null
    : path.win32.join(root, 'System32', 'WindowsPowerShell', 'v1.0', POWERSHELL);
}

const CSHARP = `
using System;
using System.Runtime.InteropServices;
using System.Text;
public static class SwitchyardCred {
  [StructLayout(LayoutKind.Sequential, CharSet = CharSet.Unicode)]
  struct CREDENTIAL {
    public uint Flags; public uint Type; public string TargetName; public string Comment;
    public long LastWritten; public uint CredentialBlobSize; public IntPtr CredentialBlob;
    public uint Persist; public uint AttributeCount; public IntPtr Attributes;
    public string TargetAlias; public string UserName;
  }
  [DllImport("advapi32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
  static extern bool CredReadW(string target, uint type, uint flags, out IntPtr credential);
  [DllImport("advapi32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
  static extern bool CredWriteW(ref CREDENTIAL credential, uint flags);
  [DllImport("advapi32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
  static extern bool CredDeleteW(string target, uint type, uint flags);
  [DllImport("advapi32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
  static extern bool CredEnumerateW(string filter, uint flags, out uint count, out IntPtr credentials);
  [DllImport("advapi32.dll")]
  static extern void CredFree(IntPtr buffer);
  const uint GENERIC = 1; const uint PERSIST_LOCAL_MACHINE = 2; const int NOT_FOUND = 1168;
  static string B64(string s) { return Convert.ToBase64String(Encoding.UTF8.GetBytes(s)); }
  static string Fail(string what) { return "error " + B64(what + " failed: Win32 error " + Marshal.GetLastWin32Error()); }
  public static string Get(string target) {
    IntPtr p;
    if (!CredReadW(target, GENERIC, 0, out p)) {
      return Marshal.GetLastWin32Error() == NOT_FOUND ? "missing" : Fail("CredReadW");
    }
    try {
      CREDENTIAL c = (CREDENTIAL)Marshal.PtrToStructure(p, typeof(CREDENTIAL));
      byte[] blob = new byte[c.CredentialBlobSize];
      if (c.CredentialBlobSize > 0) Marshal.Copy(c.CredentialBlob, blob, 0, blob.Length);
      return "found " + Convert.ToBase64String(blob);
    } finally { CredFree(p); }
  }
  public static string Set(string target, byte[] value) {
    CREDENTIAL c = new CREDENTIAL();
    c.Type = GENERIC; c.TargetName = target; c.Persist = PERSIST_LOCAL_MACHINE;
    c.UserName = "switchyard"; c.CredentialBlobSize = (uint)value.Length;
    c.CredentialBlob = Marshal.AllocHGlobal(Math.Max(value.Length, 1));
    try {
      Marshal.Copy(value, 0, c.CredentialBlob, value.Length);
      return CredWriteW(ref c, 0) ? "ok" : Fail("CredWriteW");
    } finally {
      for (int i = 0; i < value.Length; i++) Marshal.WriteByte(c.CredentialBlob, i, 0);
      Marshal.FreeHGlobal(c.CredentialBlob);
    }
  }
  public static string Delete(string target) {
    if (CredDeleteW(target, GENERIC, 0)) return "deleted";
    return Marshal.GetLastWin32Error() == NOT_FOUND ? "missing" : Fail("CredDeleteW");
  }
  public static string List(string filter) {
    uint count; IntPtr list;
    if (!CredEnumerateW(filter, 0, out count, out list)) {
      return Marshal.GetLastWin32Error() == NOT_FOUND ? "none" : Fail("CredEnumerateW");
    }
    try {
      StringBuilder sb = new StringBuilder("none");
      for (int i = 0; i < count; i++) {
        IntPtr item = Marshal.ReadIntPtr(list, i * IntPtr.Size);
        CREDENTIAL c = (CREDENTIAL)Marshal.PtrToStructure(item, typeof(CREDENTIAL));
        if (c.Type == GENERIC) sb.Append("\\nkey " + B64(c.TargetName));
      }
      return sb.ToString();
    } finally { CredFree(list); }
  }
}
`;

// Reads "<op>\n<target b64>\n<value b64>\n" from stdin and prints one answer (plus key lines).
const SCRIPT = `$ErrorActionPreference = 'Stop'
Add-Type -TypeDefinition @'
${CSHARP}
'@
$lines = [Console]::In.ReadToEnd().Split([char]10)
$op = $lines[0].Trim()
$target = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($lines[1].Trim()))
switch ($op) {
  'get' { [Console]::Out.Write([SwitchyardCred]::Get($target)) }
  'set' { [Console]::Out.Write([SwitchyardCred]::Set($target, [Convert]::FromBase64String($lines[2].Trim()))) }
  'delete' { [Console]::Out.Write([SwitchyardCred]::Delete($target)) }
  'list' { [Console]::Out.Write([SwitchyardCred]::List($target)) }
}
`;

/** The arguments of every call: the script, encoded, and never anything of the request. */
export function powershellArgs(): string[] {
  return [
    '-NoLogo',
    '-NoProfile',
    '-NonInteractive',
    '-ExecutionPolicy',
    'Bypass',
    '-EncodedCommand',
    Buffer.from(SCRIPT, 'utf16le').toString('base64'),
  ];
}

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

export class CredentialManagerStore implements SecretStore {
  readonly info: SecretStoreInfo = {
    kind: 'credential-manager',
    where:
      'the Windows Credential Manager (generic credentials "switchyard:<key>"), through PowerShell',
  };

  constructor(private readonly options: CredentialManagerOptions) {}

  async get(key: string): Promise<string | undefined> {
    checkKey(key);
    const answer = await this.call('get', `${TARGET_PREFIX}${key}`, '', key);
    if (answer === 'missing') return undefined;
    const found = /^found ?([A-Za-z0-9+/]*={0,2})$/.exec(answer);
    if (found?.[1] === undefined) throw this.garbage(key);
    return Buffer.from(found[1], 'base64').toString('utf8');
  }

  async set(key: string, value: string): Promise<void> {
    checkKey(key);
    if (Buffer.byteLength(value, 'utf8') > MAX_CREDENTIAL_BLOB_BYTES) {
      throw new SecretStoreError(
        `the value for '${key}' is longer than the Credential Manager holds (${MAX_CREDENTIAL_BLOB_BYTES} bytes); set SWITCHYARD_SECRET_STORE=file to keep it in a 0600 file instead.`,
      );
    }
    const answer = await this.call('set', `${TARGET_PREFIX}${key}`, b64(value), key);
    if (answer !== 'ok') throw this.garbage(key);
  }

  async delete(key: string): Promise<boolean> {
    checkKey(key);
    const answer = await this.call('delete', `${TARGET_PREFIX}${key}`, '', key);
    if (answer === 'deleted') return true;
    if (answer === 'missing') return false;
    throw this.garbage(key);
  }

  async list(prefix: string): Promise<string[]> {
    const answer = await this.call('list', `${TARGET_PREFIX}*`, '', prefix);
    const [head, ...rest] = answer.split('\n');
    if (head !== 'none') throw this.garbage(prefix);
    const keys = new Set<string>();
    for (const line of rest) {
      const match = /^key ([A-Za-z0-9+/]*={0,2})$/.exec(line.trim());
      if (match?.[1] === undefined) throw this.garbage(prefix);
      const target = Buffer.from(match[1], 'base64').toString('utf8');
      if (!target.startsWith(TARGET_PREFIX)) continue;
      const key = target.slice(TARGET_PREFIX.length);
      if (keyProblem(key) === undefined && key.startsWith(prefix)) keys.add(key);
    }
    return [...keys].sort();
  }

  /** One PowerShell run; the answer with an `error` line turned into a thrown error. */
  private async call(op: string, target: string, value: string, key: string): Promise<string> {
    const command = powershellPath(this.options.env);
    if (command === null) throw new Error(unknownWindowsRootMessage(POWERSHELL, this.options.env));
    const result = await this.options.run({
      command,
      args: powershellArgs(),
      stdin: `${op}\n${b64(target)}\n${value}\n`,
      env: this.options.env,
      timeoutMs: this.options.timeoutMs ?? POWERSHELL_TIMEOUT_MS,
    });
    const answer = result.stdout.trim();
    const error = /^error ([A-Za-z0-9+/]*={0,2})$/.exec(answer);
    if (result.code !== 0 || error) {
      const why =
        error?.[1] !== undefined
          ? Buffer.from(error[1], 'base64').toString('utf8')
          : firstLine(result.stderr);
      throw new SecretStoreError(
        `could not use the Credential Manager for '${key}' (${firstLine(why) || `PowerShell exited ${String(result.code)}`}); set SWITCHYARD_SECRET_STORE=file to keep secrets in a 0600 file instead.`,
      );
    }
    return answer;
  }

  private garbage(key: string): SecretStoreError {
    return new SecretStoreError(
      `the Credential Manager gave an answer Switchyard does not understand for '${key}'; set SWITCHYARD_SECRET_STORE=file to keep secrets in a 0600 file instead.`,
    );
  }
}
