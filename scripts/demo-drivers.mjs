#!/usr/bin/env node
// Keeps the seeded demo drivers online for `npm start` (dev profile; DEMO_DRIVERS=off to skip): signs each in and
// reports a position every minute (a driver not heard from for 10 minutes is not offered rides). A demo driver who
// is given a ride plays it through the API: drives to the pickup, arrives, picks up, drives to the drop-off and
// completes, a little every 15 seconds, so a newcomer's POST /rides runs its whole course.
import { DEMO_DRIVER_PASSWORD, DEMO_DRIVERS } from './lib/dev-accounts.mjs';

const base = `${process.argv[2] ?? 'http://127.0.0.1:5000'}/api/v1`;
const TICK_MS = 15_000;
const log = (m) => process.stdout.write(`[demo-drivers] ${m}\n`);

async function api(method, path, token, body) {
  const res = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const metres = (a, b) => Math.hypot((a.lat - b.lat) * 111_320, (a.lng - b.lng) * 111_320 * Math.cos((a.lat * Math.PI) / 180));
// At most 400 m a tick (about 100 km/h): the API refuses positions faster than DRIVER_MAX_SPEED_KMH.
const STEP_M = 400;
const toward = (from, to) => {
  const share = Math.min(1, STEP_M / Math.max(1, metres(from, to)));
  return { lat: from.lat + (to.lat - from.lat) * share, lng: from.lng + (to.lng - from.lng) * share };
};

const drivers = [];
for (const d of DEMO_DRIVERS) {
  const login = await api('POST', '/auth/login/password', undefined, { email: d.email, password: DEMO_DRIVER_PASSWORD });
  if (login.status !== 200) {
    log(`cannot sign in ${d.email} (${login.status}); is the seed imported?`);
    continue;
  }
  drivers.push({ ...d, token: login.body.accessToken, refresh: login.body.refreshToken, at: { lat: d.lat, lng: d.lng }, ticks: 0 });
}
for (const d of drivers) await api('PATCH', '/driver/me/status', d.token, { status: 'ONLINE' });
log(`${drivers.length} demo drivers online around Ho Chi Minh City and Hanoi (password ${DEMO_DRIVER_PASSWORD})`);

async function tick(d) {
  d.ticks += 1;
  let current = await api('GET', '/driver/rides/current', d.token);
  if (current.status === 401) {
    const refreshed = await api('POST', '/auth/refresh', undefined, { refreshToken: d.refresh });
    if (refreshed.status !== 200) return;
    [d.token, d.refresh] = [refreshed.body.accessToken, refreshed.body.refreshToken];
    current = await api('GET', '/driver/rides/current', d.token);
  }
  const ride = current.body?.ride;
  if (!ride) {
    if (d.ticks % 4 === 0) await api('POST', '/driver/me/location', d.token, { lat: d.lat + (Math.random() - 0.5) * 0.001, lng: d.lng + (Math.random() - 0.5) * 0.001 });
    return;
  }
  if (ride.status === 'CONFIRMED') {
    d.at = metres(d.at, ride.pickup) < 150 ? { lat: ride.pickup.lat, lng: ride.pickup.lng } : toward(d.at, ride.pickup);
    await api('POST', '/driver/me/location', d.token, d.at);
    if (d.at.lat === ride.pickup.lat) await api('POST', `/rides/${ride.id}/arrived`, d.token);
  } else if (ride.status === 'ARRIVED') {
    await api('POST', `/rides/${ride.id}/pickup`, d.token);
    log(`${d.name} picked up the rider of ${ride.id}`);
  } else if (ride.status === 'IN_PROGRESS') {
    d.at = metres(d.at, ride.dropoff) < 200 ? { lat: ride.dropoff.lat, lng: ride.dropoff.lng } : toward(d.at, ride.dropoff);
    await api('POST', '/driver/me/location', d.token, d.at);
    if (d.at.lat === ride.dropoff.lat) {
      const done = await api('POST', `/rides/${ride.id}/complete`, d.token);
      log(`${d.name} completed ${ride.id}: fare ${done.body?.fare} VND`);
      [d.lat, d.lng] = [d.at.lat, d.at.lng];
    }
  }
}

setInterval(() => {
  for (const d of drivers) tick(d).catch((err) => log(`${d.email}: ${err.message}`));
}, TICK_MS);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
