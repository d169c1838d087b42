/**
 * A warm samegame for the guides: one Node process that loads the built CLI (dist/cli/main.js, what
 * bin/samegame.js loads) once and runs each `samegame ARGS` a guide step asks for through main(argv),
 * one call at a time, in the caller's working folder and environment. The guide's `samegame` and
 * `npx samegame` connect to it (client.mjs): a call costs a small Node start instead of loading the
 * whole CLI again (about a second of CPU a call, most of a short command's time).
 *
 * Protocol, over a Unix socket: the client sends one JSON line {argv, cwd, env}; the server answers
 * with frames [kind: 1 byte][length: 4 bytes][bytes] in the order the command wrote them, kind 1
 * standard output, 2 standard error, and ends with kind 0 whose 4 bytes are the exit code.
 * As the binary: main's code is the exit code; a command that throws ends with exit 1 and the stack.
 *
 * Usage: node server.mjs SOCKET ROOT — prints "ready" when it listens; ends when its standard input closes.
 * SAMEGAME_GUIDE_CLI_CPU=FILE (in its own environment): appends the CPU seconds it used to FILE as it ends (to measure the guides).
 */
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [socketPath, root] = process.argv.slice(2);
const { main } = await import(pathToFileURL(join(root, 'dist', 'cli', 'main.js')).href);
const BIN = join(root, 'bin', 'samegame.js');

/** The connection of the call running now (one at a time: the working folder and environment are the process's). */
let current;
const frame = (kind, body) => {
  const head = Buffer.alloc(5);
  head.writeUInt8(kind, 0);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
};
const send = (sock, kind, body) => { if (sock && !sock.destroyed) sock.write(frame(kind, body)); };

for (const [stream, kind] of [[process.stdout, 1], [process.stderr, 2]]) {
  const before = stream.write.bind(stream);
  stream.write = (chunk, ...rest) => {
    if (current === undefined) return before(chunk, ...rest);
    send(current, kind, typeof chunk === 'string' ? Buffer.from(chunk, typeof rest[0] === 'string' ? rest[0] : 'utf8') : Buffer.from(chunk));
    const cb = rest.find((r) => typeof r === 'function');
    if (cb) process.nextTick(cb);
    return true;
  };
}
// An error no call caught would end the binary: it goes to the call's standard error, and the call ends with exit 1.
let uncaught = false;
const onUncaught = (e) => {
  uncaught = true;
  const text = `${e instanceof Error ? e.stack : String(e)}\n`;
  if (current) send(current, 2, Buffer.from(text)); else process.stderr.write(text);
};
process.on('uncaughtException', onUncaught);
process.on('unhandledRejection', onUncaught);

async function serve(request, sock) {
  const { argv, cwd, env } = JSON.parse(request);
  // The real environment, not a copy: what reads it below JavaScript (os.homedir, child processes) sees the caller's.
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, env);
  process.chdir(cwd);
  current = sock;
  uncaught = false;
  let code;
  try {
    code = await main([process.execPath, BIN, ...argv]);
  } catch (e) {
    send(sock, 2, Buffer.from(`${e instanceof Error ? e.stack : String(e)}\n`));
    code = 1;
  }
  // What a command left to run (a write's callback, a timer) runs before its end is sent, as before the process would exit.
  await new Promise((resolve) => setImmediate(resolve));
  current = undefined;
  const tail = Buffer.alloc(4);
  tail.writeInt32BE(uncaught && code === 0 ? 1 : code, 0);
  if (!sock.destroyed) sock.end(frame(0, tail));
}

let queue = Promise.resolve();
const server = createServer((sock) => {
  sock.on('error', () => undefined); // a client gone (its reader closed the pipe): the call still runs to its end
  let buffered = '';
  sock.on('data', function onData(d) {
    buffered += d.toString('utf8');
    const nl = buffered.indexOf('\n');
    if (nl < 0) return;
    sock.off('data', onData);
    const request = buffered.slice(0, nl);
    queue = queue.then(() => serve(request, sock)).catch((e) => { onUncaught(e); current = undefined; sock.destroy(); });
  });
});
server.listen(socketPath, () => process.stdout.write('ready\n'));
const cpuFile = process.env.SAMEGAME_GUIDE_CLI_CPU;
process.stdin.on('end', () => {
  const { user, system } = process.cpuUsage();
  if (cpuFile) appendFileSync(cpuFile, `${((user + system) / 1e6).toFixed(2)}\n`);
  process.exit(0);
});
process.stdin.resume();
