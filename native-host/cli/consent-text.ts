import type { ConsentRequest } from '../../protocol/servers';

/** The launch consent card as terminal text: everything literal, nothing summarized away. */
export function formatConsent(c: ConsentRequest): string {
  const origin =
    c.provenance === 'workspace'
      ? `workspace ${c.workspaceRoot ?? '?'}${c.sourceFile === null ? '' : `, from ${c.sourceFile}`}`
      : 'your config.json';
  const remote = c.remote;
  const what =
    remote === null
      ? []
      : [
          `  connects to: ${remote.url}`,
          `  origin:      ${remote.origin}   (your data and any token in the headers go there)`,
          `  transport:   ${remote.transport}`,
          `  headers:     ${remote.headers.length === 0 ? '(none)' : remote.headers.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')}`,
          ...(remote.oauthClient === undefined
            ? []
            : [
                `  oauth:       client ${JSON.stringify(remote.oauthClient.clientId)}, ${remote.oauthClient.clientSecret === null ? 'no secret' : `secret from ${remote.oauthClient.clientSecret}`}`,
                ...(remote.oauthClient.machineGrant === undefined
                  ? []
                  : [`  grant:       ${remote.oauthClient.machineGrant} (tokens with no sign-in)`]),
              ]),
        ];
  const lines = [
    `Server '${c.server}' (${origin}): ${c.summary}`,
    ...what,
    ...(remote === null ? localLines(c) : []),
    ...(c.toolPrefix === undefined || c.toolPrefix === null
      ? []
      : [`  tool names:  ${JSON.stringify(c.toolPrefix)}__… (what its tool names start with)`]),
    `  fingerprint: ${c.fingerprint}`,
  ];
  for (const change of c.changes) {
    lines.push(
      'key' in change
        ? `  changed ${change.field} ${change.key}: ${change.before ?? '(unset)'} -> ${change.after ?? '(unset)'}`
        : `  changed ${change.field}: ${change.before} -> ${change.after}`,
    );
  }
  for (const warning of c.warnings) lines.push(`  ! ${warning}`);
  return lines.join('\n');
}

function localLines(c: ConsentRequest): string[] {
  return [
    `  program:     ${c.executable}${c.command === c.executable ? '' : `   (written as '${c.command}')`}`,
    `  args:        ${c.args.length === 0 ? '(none)' : c.args.map((a) => JSON.stringify(a)).join(' ')}`,
    `  env:         ${c.env.length === 0 ? '(none)' : c.env.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ')}`,
    `  cwd:         ${c.cwd ?? '(not set: your home folder)'}`,
  ];
}
