import { perConfig } from '../../src/platform/core/config/per-config';
import { testConfig } from '../helpers/config';

describe('perConfig', () => {
  it('builds once per configuration object and separately for another one', () => {
    let builds = 0;
    const service = perConfig((config: { PUSH_TRANSPORT: string }) => ({ transport: config.PUSH_TRANSPORT, n: (builds += 1) }));
    const a = testConfig({ PUSH_TRANSPORT: 'outbox' });
    const b = testConfig({ PUSH_TRANSPORT: 'fcm' });
    expect(service(a)).toBe(service(a));
    expect(service(b)).not.toBe(service(a));
    expect(service(b).transport).toBe('fcm');
    expect(builds).toBe(2);
  });
});
