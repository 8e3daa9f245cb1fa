import { DEV_EXTENSION_ID, GECKO_ID, chromiumOrigin } from '../../protocol/identity';

/**
 * Who started the host. Chromium-family browsers pass the caller's origin
 * (`chrome-extension://<id>/`) as the first argument (plus `--parent-window=<n>` on Windows);
 * Firefox passes the path of the host manifest and then the caller's extension id. The browser
 * already enforces the manifest's allow-list; this check is the host's own, so a manifest edited
 * by someone else still cannot hand the host to another extension.
 */

export interface AllowedCallers {
  readonly chromiumIds: readonly string[];
  readonly geckoIds: readonly string[];
}

export const DEFAULT_ALLOWED_CALLERS: AllowedCallers = {
  chromiumIds: [DEV_EXTENSION_ID],
  geckoIds: [GECKO_ID],
};

export type CallerCheck =
  { readonly ok: true; readonly caller: string } | { readonly ok: false; readonly message: string };

export function checkCaller(args: readonly string[], allowed: AllowedCallers): CallerCheck {
  const first = args[0];
  if (first === undefined) {
    return {
      ok: false,
      message:
        "'switchyard host' is started by the browser, which names the calling extension. To try the host by hand, use 'switchyard doctor', 'tools' or 'call'.",
    };
  }
  if (first.startsWith('chrome-extension://')) {
    if (allowed.chromiumIds.some((id) => chromiumOrigin(id) === first))
      return { ok: true, caller: first };
    return {
      ok: false,
      message: `Refusing caller ${first.slice(0, 200)}: not a Switchyard extension id.`,
    };
  }
  // Firefox: <path to manifest> <extension id>.
  const second = args[1];
  if (second !== undefined && allowed.geckoIds.includes(second))
    return { ok: true, caller: second };
  return {
    ok: false,
    message: `Refusing caller ${(second ?? first).slice(0, 200)}: not a Switchyard extension.`,
  };
}
