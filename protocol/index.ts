export * from './builtin-tools';
export * from './errors';
export * from './identity';
export * from './jsonrpc';
export * from './limits';
export * from './methods';
export * from './servers';
export * from './tools';
