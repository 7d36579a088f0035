import { incidentDeadline } from '../../../src/modules/status/status.deadline';
import { incidentMachine } from '../../../src/modules/status/status.machine';
import type { IncidentRecord } from '../../../src/modules/status/status.model';
import { componentStates } from '../../../src/modules/status/status.page';

// The status page's pure parts: component states from incidents, the machine, and the monitoring window's lazy end.
const incident = (over: Partial<IncidentRecord>): IncidentRecord => ({
  id: 'i1',
  title: 'Slow',
  impact: 'MINOR',
  components: ['api'],
  status: 'OPEN',
  updates: [{ at: 1_000, status: 'OPEN', message: 'Investigating.', by: 'a1' }],
  monitorUntil: null,
  createdAt: 1_000,
  updatedAt: 1_000,
  resolvedAt: null,
  ...over,
});

describe('status page, pure parts', () => {
  it('a component takes the worst impact of the incidents naming it; the others are operational', () => {
    const states = componentStates([
      incident({ impact: 'MINOR', components: ['api', 'push'] }),
      incident({ id: 'i2', impact: 'OUTAGE', components: ['push'] }),
      incident({ id: 'i3', impact: 'MAJOR', components: ['payments'] }),
    ]);
    expect(Object.fromEntries(states.map((c) => [c.name, c.state]))).toEqual({
      api: 'DEGRADED',
      firestore: 'OPERATIONAL',
      auth: 'OPERATIONAL',
      storage: 'OPERATIONAL',
      push: 'MAJOR_OUTAGE',
      mail: 'OPERATIONAL',
      sms: 'OPERATIONAL',
      payments: 'PARTIAL_OUTAGE',
    });
  });

  it('only staff move an incident, and only the system resolves one at the end of its window', () => {
    expect(incidentMachine.allowed('OPEN', ['STAFF'])).toEqual(['monitor', 'resolve']);
    expect(incidentMachine.allowed('MONITORING', ['STAFF'])).toEqual(['reopen', 'resolve']);
    expect(incidentMachine.allowed('RESOLVED', ['STAFF'])).toEqual([]);
    expect(() => incidentMachine.check('autoResolve', 'MONITORING', ['STAFF'])).toThrow(expect.objectContaining({ code: 'INCIDENT_NOT_ALLOWED' }));
  });

  it('a MONITORING incident past its window reads as resolved, with an update saying so; before it, or OPEN, as it is', () => {
    const monitoring = incident({ status: 'MONITORING', monitorUntil: 60_000 });
    expect(incidentDeadline.settle(monitoring, 59_999)).toEqual({ entity: monitoring, expired: false });
    const { entity, expired } = incidentDeadline.settle(monitoring, 60_000);
    expect(expired).toBe(true);
    expect(entity).toMatchObject({ status: 'RESOLVED', resolvedAt: 60_000, monitorUntil: null, updatedAt: 60_000 });
    expect(entity.updates.at(-1)).toEqual({
      at: 60_000,
      status: 'RESOLVED',
      message: 'Resolved: no recurrence while monitoring.',
      by: 'system:status-monitor',
    });
    expect(incidentDeadline.settle(incident({ monitorUntil: 60_000 }), 90_000).expired).toBe(false);
  });
});
