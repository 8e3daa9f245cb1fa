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
      configWarnings: [...facts.configWarnings],
      ...(facts.runtime === null ? {} : { runtime: facts.runtime }),
    },
  };
}
