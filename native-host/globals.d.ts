/** Replaced by esbuild with package.json's version at bundle time. */
declare const __SWITCHYARD_VERSION__: string;
