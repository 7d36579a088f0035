import type { AppConfig } from '../../platform/config';
import type { DocumentEvent } from '../../platform/module/module';
import { dispatchServiceFor } from './driver.wiring';

// A locked account, or one that lost the DRIVER role, leaves the dispatch pool at once (a trigger on the account,
// whoever changed it), not when its position goes stale. Dispatch re-reads the account before assigning anyway;
// this also takes the driver off the drivers map and out of surge's supply. At least once: going OFFLINE twice is
// a no-op.

type AccountFields = { roles?: unknown; disabled?: unknown };

/** Whether the account may drive: not locked, and holding DRIVER. */
export function mayDrive(account: AccountFields | undefined): boolean {
  return account !== undefined && account.disabled !== true && Array.isArray(account.roles) && account.roles.includes('DRIVER');
}

/** The `driverAccountChanged` trigger's work: 'offline' when the driver was taken out of the pool. */
export async function onAccountUpdated(event: DocumentEvent, config: Readonly<AppConfig>): Promise<'offline' | 'ignored'> {
  if (!mayDrive(event.before?.data as AccountFields | undefined) || mayDrive(event.after?.data as AccountFields | undefined)) return 'ignored';
  return (await dispatchServiceFor(config).takeOffline(event.params.userId)) ? 'offline' : 'ignored';
}
