// Sends a health probe whose request is under way when SIGTERM arrives (headers finished after it).
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
const [port, pid] = process.argv.slice(2).map(Number);
const socket = net.connect(port, '127.0.0.1');
let answer = '';
socket.setEncoding('utf8').on('data', (c) => (answer += c));
await new Promise((r) => socket.once('connect', r));
socket.write('GET /v1/health HTTP/1.1\r\nHost: petstore\r\n');
await sleep(200);
process.kill(pid, 'SIGTERM');
await sleep(200);
socket.write('\r\n');
await new Promise((r) => socket.once('close', r));
console.log(answer.replace(/\r/g, ''));
