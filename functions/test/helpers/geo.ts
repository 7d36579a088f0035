import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * A spot of its own for a test, with points around it. Test files run side by side and leave drivers online and stores
 * open, so each call gets a grid cell no other call of the run has: cells are half a degree apart (52 km or more), wider
 * than any search radius here (50 km at most), handed out through one directory per run (mkdir is atomic across jest
 * workers). The grid leaves out the fixed spots tests use (Ho Chi Minh City) and stays south of the order tests'
 * stores (21.4° N+); a run that used up every cell starts over on the oldest.
 */
const CELL_DEG = 0.5;
const LAT_FROM = 8;
const LNG_FROM = 103.5;
const ROWS = 25;
const COLUMNS = 13;
const FIXED_SPOTS_HELD = (lat: number, lng: number) => lat > 9.4 && lat < 11.6 && lng > 105.4 && lng < 107.6;

const cells: Array<{ lat: number; lng: number }> = [];
for (let row = 0; row < ROWS; row += 1) {
  for (let column = 0; column < COLUMNS; column += 1) {
    const cell = { lat: LAT_FROM + (row + 0.5) * CELL_DEG, lng: LNG_FROM + (column + 0.5) * CELL_DEG };
    if (!FIXED_SPOTS_HELD(cell.lat, cell.lng)) cells.push(cell);
  }
}

// npm test and test:files name one directory for the whole run (both jest processes); run alone, jest's parent.
const runDir = process.env.TEST_GEO_CELLS ?? path.join(os.tmpdir(), `superapp-geo-cells-${process.ppid}`);
// Runs start at different cells, so a run on an emulator another run filled meets none of its records.
const runOffset = [...path.basename(runDir)].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 7) % cells.length;
let next = 0;

function claimCell(): number {
  fs.mkdirSync(runDir, { recursive: true });
  for (; ; next += 1) {
    try {
      fs.mkdirSync(path.join(runDir, String(next)));
      return (runOffset + next) % cells.length;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

export function area() {
  const cell = cells[claimCell()];
  // A little play inside the cell keeps points off round numbers.
  const lat = cell.lat + (Math.random() - 0.5) * 0.004;
  const lng = cell.lng + (Math.random() - 0.5) * 0.004;
  return {
    lat,
    lng,
    near: (dNorthM: number, dEastM = 0) => ({ lat: lat + dNorthM / 111_320, lng: lng + dEastM / (111_320 * Math.cos((lat * Math.PI) / 180)) }),
  };
}
