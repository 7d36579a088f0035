// The benchmark servers (servers.cjs) run each in its own process: started by kind and port, stopped on request.
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The heap Node gives the api function's 512 MiB instance (functions/src/index.ts): under a 512 MiB memory limit
 * Node 24 sizes it to 259 MiB with a young generation of 1–2 MiB, as these flags do (compared under a 512 MiB memory
 * cgroup here). Unlimited, on a 24 GB machine, it sizes it to 4 GiB and lets garbage pile up to hundreds of MiB
 * before collecting it, which says nothing of the instance.
 */
export const INSTANCE_HEAP_FLAGS = ['--max-old-space-size=256', '--max-semi-space-size=1'];

export function startServer(kind, port, env) {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(here, 'servers.cjs'), [kind, String(port)], {
      env,
      execArgv: INSTANCE_HEAP_FLAGS,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
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
