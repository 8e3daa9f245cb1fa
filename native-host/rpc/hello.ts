import { PROTOCOL_VERSION, type HostRuntime } from '../../protocol/hello';
import type { ParamsOf, ResultOf } from '../../protocol/methods';
import { HostError } from '../shared/host-error';

/**
 * The answer to `host/hello`, given by the first stage for the connection's first hello and by
 * the dispatcher's handler for any later one (decision 0030): one function, so both say the same.
 */

export interface HelloFacts {
  readonly version: string;
  readonly home: string;
  readonly configWarnings: readonly string[];
  /** The Node that runs the host; null when its version could not be read. */
  readonly runtime: HostRuntime | null;
}

/**
 * What the hello carries of the configuration's warnings at most: the reply must fit in one frame
 * to the browser (1 MiB), and a first hello that does not fit is never answered. Each file already
 * reports at most 50 (config/json-format.ts); many workspace folders could still add up.
 */
export const MAX_HELLO_WARNINGS = 200;
export const MAX_HELLO_WARNING_CHARS = 256 * 1024;

/** `warnings` cut to the hello's bounds, the last line then saying how many were left out. */
export function helloWarnings(warnings: readonly string[]): string[] {
  let chars = 0;
  const over = warnings.findIndex((warning, index) => {
    chars += warning.length;
    return index >= MAX_HELLO_WARNINGS || chars > MAX_HELLO_WARNING_CHARS;
  });
  if (over === -1) return [...warnings];
  // One line is kept for saying how many were left out.
  const kept = warnings.slice(0, Math.min(over, MAX_HELLO_WARNINGS - 1));
  const left = warnings.length - kept.length;
  return [
    ...kept,
    `...and ${String(left)} more configuration ${left === 1 ? 'warning' : 'warnings'}; 'switchyard doctor' shows them.`,
  ];
}

export function helloAnswer(
  params: ParamsOf<'host/hello'>,
  facts: HelloFacts,
):
  | { readonly ok: true; readonly result: ResultOf<'host/hello'> }
  | { readonly ok: false; readonly error: HostError } {
  if (params.protocolVersion !== PROTOCOL_VERSION) {
    return {
      ok: false,
      error: new HostError(
        'protocol-mismatch',
        `This host speaks protocol ${PROTOCOL_VERSION}, the extension ${params.protocolVersion}. Update both to the same release (run 'switchyard install' again).`,
        { supported: [PROTOCOL_VERSION] },
      ),
    };
  }
  return {
    ok: true,
    result: {
      protocolVersion: PROTOCOL_VERSION,
      host: { name: 'switchyard', version: facts.version },
      home: facts.home,
      configWarnings: helloWarnings(facts.configWarnings),
      ...(facts.runtime === null ? {} : { runtime: facts.runtime }),
    },
  };
}
