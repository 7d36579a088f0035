import type { CommandOwner } from '../../core/module/maintenance';
import { cellIndexOf } from '../firestore/collections';

// The geo kit's one-shot commands (`npm run module -- geo:<command>`), beside the platform's and the modules'.
export const GEO_COMMANDS: CommandOwner = {
  name: 'geo',
  commands: {
    // The cell index of every collection that declares one (cell-index.ts): the records written before it (a deploy
    // of the index runs it once; the API keeps the index in step from then on).
    'index-nearby-cells': {
      describe: 'adds the records written before the cell index to it (every catalog found nearby); idempotent',
      load: () => async (ctx) => {
        const { rebuildCellIndex } = require('./cell-index.rebuild') as typeof import('./cell-index.rebuild');
        const indexed = ctx.collections.filter((c) => !c.parent && ctx.collections.some((x) => x.name === cellIndexOf(c.name)));
        for (const { name } of indexed) {
          const [sweep, add] = await rebuildCellIndex(name, (p) =>
            ctx.log(`  ${name}: ${p.pass === 1 ? 'cells' : 'records'} page ${p.pages}, ${p.read} read, ${p.fixed} fixed so far`),
          );
          ctx.log(`${name}: ${sweep.fixed} stale entries taken out of ${sweep.read} cells, ${add.fixed} of ${add.read} records indexed`);
        }
      },
    },
  },
};
