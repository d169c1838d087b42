/**
 * The guides' `samegame` when a warm CLI serves them (server.mjs, socket in SAMEGAME_GUIDE_CLI):
 * sends its arguments, working folder and environment, writes what the command writes to its own
 * standard output and error in the order written, and exits with the command's code. A reader
 * that closes the pipe ends it quietly with exit 0, as the binary's launcher does.
 */
import { connect } from 'node:net';

for (const s of [process.stdout, process.stderr]) s.on('error', (e) => { if (e.code === 'EPIPE') process.exit(0); throw e; });

const sock = connect(process.env.SAMEGAME_GUIDE_CLI);
sock.write(`${JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), env: process.env })}\n`);
let buffered = Buffer.alloc(0);
let code;
sock.on('data', (d) => {
  buffered = Buffer.concat([buffered, d]);
  while (buffered.length >= 5) {
    const kind = buffered.readUInt8(0);
    const length = buffered.readUInt32BE(1);
    if (buffered.length < 5 + length) break;
    const body = buffered.subarray(5, 5 + length);
    buffered = buffered.subarray(5 + length);
    if (kind === 0) code = body.readInt32BE(0);
    else (kind === 1 ? process.stdout : process.stderr).write(body);
  }
});
sock.on('error', (e) => { process.stderr.write(`samegame (the guides' warm CLI): ${e.message}\n`); });
sock.on('close', () => {
  if (code === undefined) process.stderr.write("samegame (the guides' warm CLI): the server ended before the command did\n");
  process.exitCode = code ?? 1;
});
