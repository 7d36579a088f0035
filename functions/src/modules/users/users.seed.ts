import type { SeedContext } from '../../platform/core/module/maintenance';
import type { Role } from '../../platform/core/auth/roles';
import { newUserRecord, queryFields, USER_EMAILS, USERS } from './users.model';

interface Account {
  id: string;
  email: string;
  name: string;
  password: string;
}

// The demo accounts (emulator only): the local administrator (also listed in ADMIN_EMAILS by `npm start`), two
// consumers, thirty drivers and the demo partner's owner, built with the API's own account model.
export async function seedUsers(ctx: SeedContext): Promise<void> {
  const bcrypt = require('bcryptjs') as typeof import('bcryptjs');
  const f = ctx.fixtures as {
    DEV_ADMIN: Account;
    DEMO_USERS: Account[];
    DEMO_DRIVERS: Account[];
    DEMO_DRIVER_PASSWORD: string;
    DEMO_PARTNER: Account & { userId: string };
  };
  const account = (a: Account, roles: Role[], passwordHash = bcrypt.hashSync(a.password, 10)) =>
    newUserRecord({ id: a.id, email: a.email, name: a.name, passwordHash, emailVerified: true, provider: 'password', now: ctx.now, roles });
  const admin = account(f.DEV_ADMIN, ['USER', 'ADMIN']);
  const users = f.DEMO_USERS.map((u) => account(u, ['USER']));
  const driverHash = bcrypt.hashSync(f.DEMO_DRIVER_PASSWORD, 10);
  const drivers = f.DEMO_DRIVERS.map((d) => account({ ...d, password: f.DEMO_DRIVER_PASSWORD }, ['DRIVER'], driverHash));
  const partnerOwner = account({ ...f.DEMO_PARTNER, id: f.DEMO_PARTNER.userId }, ['USER', 'PARTNER_OWNER']);
  const everyone = [admin, ...users, ...drivers, partnerOwner];
  await ctx.write(USERS, Object.fromEntries(everyone.map(({ id, ...data }) => [id, { ...data, ...queryFields(data) }])));
  await ctx.write(USER_EMAILS, Object.fromEntries(everyone.map((u) => [u.email!, { userId: u.id, createdAt: ctx.now }])));
}
