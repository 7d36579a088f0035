// The benchmark servers (servers.cjs) run each in its own process: started by kind and port, stopped on request.
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export function startServer(kind, port, env) {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(here, 'servers.cjs'), [kind, String(port)], { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

export function stopServer(child) {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', resolve);
    child.send('stop');
  });
}
