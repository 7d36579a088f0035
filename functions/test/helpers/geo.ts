import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * A spot of its own for a test, with points around it. Test files run side by side and leave drivers online and stores
 * open, so each call gets a grid cell no other call of the run has: cells are half a degree apart (52 km or more), wider
 * than any search radius here (50 km at most), handed out through one directory per run (mkdir is atomic across jest
 * workers). The grid leaves out the fixed spots tests use (Ho Chi Minh City) and stays south of the order tests'
 * stores (21.4° N+); a run that used up every cell of a grid starts over on its oldest.
 */
const CELL_DEG = 0.5;
type Cell = { lat: number; lng: number };

function grid(latFrom: number, lngFrom: number, rows: number, columns: number, skip: (cell: Cell) => boolean = () => false) {
  const cells: Cell[] = [];
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < columns; column += 1) {
      const cell = { lat: latFrom + (row + 0.5) * CELL_DEG, lng: lngFrom + (column + 0.5) * CELL_DEG };
      if (!skip(cell)) cells.push(cell);
    }
  }
  return cells;
}

const GRIDS = {
  // Southern and central Vietnam and the sea beside it, without the fixed spots tests use around Ho Chi Minh City.
  area: grid(8, 103.5, 25, 13, ({ lat, lng }) => lat > 9.4 && lat < 11.6 && lng > 105.4 && lng < 107.6),
  // The far north, more than a cell from the order doubles' stores (21.386° N, 103.023° E).
  stores: grid(21.9, 103.5, 3, 6),
};

// npm test and test:files name one directory for the whole run (both jest processes); run alone, jest's parent.
const runDir = process.env.TEST_GEO_CELLS ?? path.join(os.tmpdir(), `superapp-geo-cells-${process.ppid}`);
// Runs start at different cells, so a run on an emulator another run filled meets none of its records.
const runSeed = [...path.basename(runDir)].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 7);
const nextClaim: Record<string, number> = {};

function claimCell(name: keyof typeof GRIDS): Cell {
  const cells = GRIDS[name];
  const dir = path.join(runDir, name);
  fs.mkdirSync(dir, { recursive: true });
  for (let claim = nextClaim[name] ?? 0; ; claim += 1) {
    try {
      fs.mkdirSync(path.join(dir, String(claim)));
      nextClaim[name] = claim + 1;
      return cells[(runSeed + claim) % cells.length];
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** A spot in a cell of the named grid no other call of the run has, with points `dNorthM` north and `dEastM` east of it. */
export function spotIn(name: keyof typeof GRIDS) {
  const cell = claimCell(name);
  // A little play inside the cell keeps points off round numbers.
  const lat = cell.lat + (Math.random() - 0.5) * 0.004;
  const lng = cell.lng + (Math.random() - 0.5) * 0.004;
  const east = 111_320 * Math.cos((lat * Math.PI) / 180);
  return { lat, lng, near: (dNorthM: number, dEastM = 0) => ({ lat: lat + dNorthM / 111_320, lng: lng + dEastM / east }) };
}

export const area = () => spotIn('area');
