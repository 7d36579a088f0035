import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// Test files run side by side and leave drivers online and stores open, so each spot a test asks for is a grid cell
// no other call of the run has, handed out through one directory per run (mkdir is atomic across jest processes).
// Cells are half a degree apart (51 km or more); a test's points stay within 10 km of its spot, so two tests' points
// are more than 30 km apart, beyond every search the tests make (3–6 km by default, 30 km at most). A run that asks
// for more spots than a grid has fails loudly rather than sharing a cell: enlarge the grid.
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

type Grid = keyof typeof GRIDS;

// The run's directory: npm test and test:files name one for both of their jest processes, the integration tier's
// global setup makes one when jest runs alone; a process without either keeps its own.
let runDir = process.env.TEST_GEO_CELLS || undefined;
// test:files runs (and jest alone) start at different cells, so one on an emulator another run filled meets none of
// its records (npm test starts fresh emulators).
const seedOf = (dir: string) => [...path.basename(dir)].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 7);
const nextClaim: Partial<Record<Grid, number>> = {};

function claimCell(grid: Grid): Cell {
  runDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'superapp-geo-cells-'));
  const cells = GRIDS[grid];
  const dir = path.join(runDir, grid);
  fs.mkdirSync(dir, { recursive: true });
  for (let claim = nextClaim[grid] ?? 0; ; claim += 1) {
    try {
      fs.mkdirSync(path.join(dir, String(claim)));
      nextClaim[grid] = claim + 1;
      if (claim >= cells.length) throw new Error(`test/helpers/geo.ts: all ${cells.length} cells of grid ${grid} are taken in this run: enlarge it`);
      return cells[(seedOf(runDir) + claim) % cells.length];
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** A point and the points `dNorthM` metres north and `dEastM` east of it. */
export function around(lat: number, lng: number) {
  const east = 111_320 * Math.cos((lat * Math.PI) / 180);
  return { lat, lng, near: (dNorthM: number, dEastM = 0) => ({ lat: lat + dNorthM / 111_320, lng: lng + dEastM / east }) };
}

/** A spot in a cell of the grid that no other call of the run has, with points around it. */
export function spotIn(grid: Grid) {
  const cell = claimCell(grid);
  // A little play inside the cell keeps points off round numbers.
  return around(cell.lat + (Math.random() - 0.5) * 0.004, cell.lng + (Math.random() - 0.5) * 0.004);
}

/** A spot of its own for a test (no other test's drivers, stores or places within any search of it), with points around it. */
export const area = () => spotIn('area');
