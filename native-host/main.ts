// Entry point of the bundled host: `switchyard <command>`. Wiring only.
process.stderr.write('switchyard: not yet wired\n');
process.exitCode = 2;
