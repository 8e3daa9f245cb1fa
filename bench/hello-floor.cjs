'use strict';
// The floor under "host alone: spawn to host/hello answered": a node process that answers the
// first native-messaging frame with a valid hello and does nothing else (no config, no trust, no
// bundle). What node's own start and the pipes cost on this machine; the bench spawns it exactly
// as it spawns the host (same node, same flags).
let buffer = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  if (buffer.length < 4 || buffer.length < 4 + buffer.readUInt32LE(0)) return;
  // Only the two numbers the reply needs, read without a schema: this is the floor, not a host.
  const text = buffer.subarray(4, 4 + buffer.readUInt32LE(0)).toString('utf8');
  const id = Number(/"id":(\d+)/.exec(text)?.[1]);
  const protocolVersion = Number(/"protocolVersion":(\d+)/.exec(text)?.[1]);
  const body = Buffer.from(
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      result: {
        protocolVersion,
        host: { name: 'hello-floor', version: '0' },
        home: '',
        configWarnings: [],
      },
    }),
  );
  const header = Buffer.alloc(4);
  header.writeUInt32LE(body.length);
  process.stdout.write(Buffer.concat([header, body]));
});
