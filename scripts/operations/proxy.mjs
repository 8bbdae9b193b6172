// A TCP proxy to PostgreSQL on 127.0.0.1:5432, to take the database away from one server.
import net from 'node:net';
const port = Number(process.argv[2]);
net
  .createServer((c) => {
    const u = net.connect(5432, '127.0.0.1');
    c.pipe(u).pipe(c);
    c.on('error', () => u.destroy());
    u.on('error', () => c.destroy());
  })
  .listen(port, '127.0.0.1', () => console.log(`proxy on ${port}`));
