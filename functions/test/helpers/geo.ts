/** A random spot of its own for a test (records of other tests are far away), with points around it. */
export function area() {
  const lat = 9 + Math.random() * 3;
  const lng = 104.5 + Math.random() * 3;
  return {
    lat,
    lng,
    near: (dNorthM: number, dEastM = 0) => ({ lat: lat + dNorthM / 111_320, lng: lng + dEastM / (111_320 * Math.cos((lat * Math.PI) / 180)) }),
  };
}
