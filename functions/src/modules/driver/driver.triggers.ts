import type { AppConfig } from '../../platform/core/config';
import { typedTrigger } from '../../platform/core/module/triggers';
import { accountReader } from '../users';
import { mayDrive } from './driver.model';
import { dispatchServiceFor } from './driver.wiring';

// A locked account, or one that lost the DRIVER role, leaves the dispatch pool at once (a trigger on the account,
// whoever changed it), not when its position goes stale. Dispatch re-reads the account before assigning anyway;
// this also takes the driver off the drivers map and out of surge's supply. At least once: going OFFLINE twice is
// a no-op.

/** The `driverAccountChanged` trigger's work: 'offline' when the driver was taken out of the pool. */
export const onAccountUpdated = typedTrigger(
  accountReader(),
  async ({ before, after, params }, config: Readonly<AppConfig>): Promise<'offline' | 'ignored'> => {
    if (!mayDrive(before) || mayDrive(after)) return 'ignored';
    return (await dispatchServiceFor(config).takeOffline(params.userId)) ? 'offline' : 'ignored';
  },
);
