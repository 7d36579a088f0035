/**
 * A random spot of its own for a test (records of other tests are far away), with points around it. The box (about
 * 1,390 × 700 km, sea included) is wide so that the drivers other files leave online are rarely within a search's
 * 6 km of another test's spot (a 3° box met one now and then); it stays south of the order tests' stores (21.4° N+).
 */
export function area() {
  const lat = 8 + Math.random() * 12.5;
  const lng = 103.5 + Math.random() * 6.5;
  return {
    lat,
    lng,
    near: (dNorthM: number, dEastM = 0) => ({ lat: lat + dNorthM / 111_320, lng: lng + dEastM / (111_320 * Math.cos((lat * Math.PI) / 180)) }),
  };
}
