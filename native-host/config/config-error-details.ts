import { HostError } from '../shared/host-error';
import type { ConfigError } from './load';

/** Where a ConfigError points (file, line, JSON key), as the details of a protocol error. */
export function configErrorDetails(error: ConfigError): Record<string, string | number> {
  return {
    ...(error.file === undefined ? {} : { file: error.file }),
    ...(error.line === undefined ? {} : { line: error.line }),
    ...(error.key === undefined ? {} : { key: error.key }),
  };
}

/**
 * `config-invalid` for a config file Switchyard was asked to change and would not (updateConfigFile
 * never overwrites a file it cannot parse): the message says where the problem is.
 */
export function configUpdateError(error: ConfigError): HostError {
  return new HostError(
    'config-invalid',
    `Cannot update ${error.message}. Nothing was changed; fix the file, then try again.`,
    configErrorDetails(error),
  );
}
