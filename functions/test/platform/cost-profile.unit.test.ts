import fs from 'node:fs';
import path from 'node:path';
import { MODULES } from '../../src/modules';

// The bench's cost model prices a usage profile (scripts/lib/cost-profile.cjs) from the operations' measured counts:
// a name that matches nothing would be left out of the estimate, so every one is an operation of the API (its
// operationId) or a trigger handler (`trigger:<name>`).
const root = path.join(__dirname, '..', '..', '..');
const { PROFILE, PRICES, profileOperations } = require(path.join(root, 'scripts', 'lib', 'cost-profile.cjs')) as {
  PROFILE: { dailyUsers: number; flows: Array<{ name: string; perUser: number; ops: Record<string, number>; listened?: number }> };
  PRICES: { readsPer100k: number; writesPer100k: number; deletesPer100k: number };
  profileOperations(): string[];
};

describe('the cost model’s usage profile', () => {
  it('names only operations of the API and trigger handlers of the module list', () => {
    const spec = JSON.parse(fs.readFileSync(path.join(root, 'openapi', 'openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const operationIds = new Set(Object.values(spec.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId)));
    const handlers = new Set(MODULES.flatMap((m) => Object.keys(m.triggers ?? {}).map((name) => `trigger:${name}`)));
    const unknown = profileOperations().filter((op) => !operationIds.has(op) && !handlers.has(op));
    expect(unknown).toEqual([]);
    expect(profileOperations()).toEqual(
      expect.arrayContaining(['createRide', 'checkoutCart', 'sendMessage', 'reportMyDriverLocation', 'trigger:rideStatusChanged']),
    );
  });

  it('counts are positive and the prices are per 100,000 documents', () => {
    for (const flow of PROFILE.flows) {
      expect([flow.name, flow.perUser > 0, Object.values(flow.ops).every((n) => n > 0)]).toEqual([flow.name, true, true]);
    }
    expect(PROFILE.dailyUsers).toBe(10_000);
    expect(PRICES.writesPer100k).toBeGreaterThan(PRICES.readsPer100k);
  });
});
