/** The host's version: package.json's, injected by the bundler; 'dev' when run from source. */
export const HOST_VERSION: string =
  typeof __SWITCHYARD_VERSION__ === 'string' ? __SWITCHYARD_VERSION__ : 'dev';
