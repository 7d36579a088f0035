// Collection names, apart from the model: the module definition (loaded at every cold start) needs only these.
// driver.model.ts re-exports them.

// `driver_profiles/{userId}`: what ride matching reads.
export const DRIVER_PROFILES = 'driver_profiles';

// `driver_locations/{userId}`: where a driver is and whether dispatch may give them a ride. Its own document (not
// the profile): written up to once a second per driver, read by every ride search.
export const DRIVER_LOCATIONS = 'driver_locations';

// `driver_job_give_ups/{userId}`: how many jobs a driver gave up before pickup, the last one and until when they are
// offered no job (`count`, `lastAt`, `cooldownUntil`, epoch ms). Operators read it through the API; a rider or a job's
// customer, who read the location document, never see it. Server only.
export const DRIVER_JOB_GIVE_UPS = 'driver_job_give_ups';
