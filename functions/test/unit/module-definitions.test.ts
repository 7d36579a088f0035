import fs from 'node:fs';
import path from 'node:path';
import { COLLECTIONS, MODULES } from '../../src/modules';

// The module list against the files Firebase needs as single files: firestore.rules (default deny, a block
// only for collections clients reach) and firestore.indexes.json (a TTL policy for every TTL field).
const root = path.join(__dirname, '..', '..', '..');
const rules = fs.readFileSync(path.join(root, 'firestore.rules'), 'utf8');
const indexes = JSON.parse(fs.readFileSync(path.join(root, 'firestore.indexes.json'), 'utf8')) as {
  indexes: Array<{ collectionGroup: string }>;
  fieldOverrides: Array<{ collectionGroup: string; fieldPath: string; ttl?: boolean }>;
};
// Top-level `match /<collection>/…` blocks of the rules (the catch-all aside).
const ruleBlocks = [...rules.matchAll(/^ {4}match \/([a-z_]+)\//gm)].map((m) => m[1]);

describe('module definitions', () => {
  it('names every collection once, each with one owner', () => {
    const names = COLLECTIONS.map((c) => `${c.parent ? `${c.parent}/` : ''}${c.name}`);
    expect(new Set(names).size).toBe(names.length);
    expect(COLLECTIONS.length).toBeGreaterThan(25);
  });

  it('rules deny everything not matched, and open a block only for collections declared clientAccess', () => {
    expect(rules).toMatch(/match \/\{document=\*\*\} \{\s*allow read, write: if false;\s*\}/);
    const clientCollections = COLLECTIONS.filter((c) => c.clientAccess && !c.parent).map((c) => c.name).sort();
    expect([...new Set(ruleBlocks)].sort()).toEqual(clientCollections);
  });

  it('every TTL field has a TTL policy, and every TTL policy belongs to a declared collection', () => {
    const declared = COLLECTIONS.filter((c) => c.ttlField).map((c) => `${c.name}.${c.ttlField}`).sort();
    const policies = indexes.fieldOverrides.filter((f) => f.ttl).map((f) => `${f.collectionGroup}.${f.fieldPath}`).sort();
    expect(policies).toEqual(declared);
  });

  it('composite indexes are on declared collections only', () => {
    const names = new Set(COLLECTIONS.map((c) => c.name));
    for (const index of indexes.indexes) expect([index.collectionGroup, names.has(index.collectionGroup)]).toEqual([index.collectionGroup, true]);
  });

  it('task and trigger function names are unique across modules, and each task consumes its own queue', () => {
    const functions = ['api', 'deliverMessage', ...MODULES.flatMap((m) => [...Object.keys(m.tasks ?? {}), ...Object.keys(m.triggers ?? {})])];
    expect(new Set(functions).size).toBe(functions.length);
    for (const m of MODULES) for (const [name, task] of Object.entries(m.tasks ?? {})) expect(task.queue.name).toBe(name);
    expect(functions).toEqual(expect.arrayContaining(['callRingTimeout', 'broadcastJob', 'callStatusChanged', 'userAuditTrail']));
  });

  it('trigger documents name a declared collection', () => {
    const names = new Set(COLLECTIONS.map((c) => c.name));
    for (const m of MODULES) for (const trigger of Object.values(m.triggers ?? {})) expect(names.has(trigger.document.split('/')[0])).toBe(true);
  });
});
