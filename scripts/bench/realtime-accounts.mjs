// Bench accounts written with the API's own account model, then signed in through the API.
import { createRequire } from 'node:module';
import path from 'node:path';
import { functionsDir } from '../lib/util.mjs';

const require = createRequire(path.join(functionsDir, 'package.json'));
const { newUserRecord } = require(path.join(functionsDir, 'lib', 'modules', 'users', 'users.model.js'));
const { usersRepo } = require(path.join(functionsDir, 'lib', 'modules', 'users', 'users.repo.js'));
const { db } = require(path.join(functionsDir, 'lib', 'platform', 'core', 'firebase', 'firebase.js'));
const bcrypt = require('bcryptjs');
const PASSWORD = 'bench-password-123';

export async function createUser(apiJson, tag) {
  const email = `${tag}-${Date.now()}@bench.test`;
  const user = newUserRecord({ id: usersRepo.newId(), email, name: tag, passwordHash: bcrypt.hashSync(PASSWORD, 10), emailVerified: true, provider: 'password', now: Date.now() });
  await db().runTransaction(async (tx) => usersRepo.txCreate(tx, user));
  const login = await apiJson('POST', '/auth/login/password', { email, password: PASSWORD });
  if (login.status !== 200) throw new Error(`bench login ${login.status}: ${JSON.stringify(login.body)}`);
  return { id: user.id, token: login.body.accessToken };
}
