import { z } from 'zod';
import { canTransition, missingPapers, APPLICATION_STATUSES, type ApplicationStatus } from '../../../src/modules/kyc/applications.model';
import { partnerRolesFor } from '../../../src/modules/partners/partners.model';
import { sniffDocumentType } from '../../../src/platform/kits/media/sniff';
import { defineRoute } from '../../../src/platform/core/http/route';
import { listen } from '../../helpers/http';
import { testConfig, TEST_JWT_SECRET, unitApp } from '../../helpers/config';
import { signAccessToken } from '../../helpers/tokens';

describe('application state machine', () => {
  const legal: Array<[ApplicationStatus, ApplicationStatus, 'ADMIN' | 'APPLICANT']> = [
    ['SUBMITTED', 'APPROVED', 'ADMIN'],
    ['SUBMITTED', 'REJECTED', 'ADMIN'],
    ['SUBMITTED', 'NEEDS_INFO', 'ADMIN'],
    ['NEEDS_INFO', 'SUBMITTED', 'APPLICANT'],
    ['NEEDS_INFO', 'REJECTED', 'ADMIN'],
  ];
  it('allows exactly the legal moves, each for one actor', () => {
    for (const from of APPLICATION_STATUSES) {
      for (const to of APPLICATION_STATUSES) {
        for (const actor of ['ADMIN', 'APPLICANT'] as const) {
          const expected = legal.some(([f, t, a]) => f === from && t === to && a === actor);
          expect([from, to, actor, canTransition(from, to, actor)]).toEqual([from, to, actor, expected]);
        }
      }
    }
  });

  it('names the missing required papers per kind', () => {
    expect(missingPapers('DRIVER', ['IDENTITY', 'OTHER'])).toEqual(['DRIVER_LICENCE', 'VEHICLE_REGISTRATION']);
    expect(missingPapers('PARTNER', ['IDENTITY', 'BUSINESS_LICENCE'])).toEqual([]);
  });
});

describe('partner roles from businessType', () => {
  it.each([
    ['FNB', ['PARTNER_OWNER']],
    ['food and beverage', ['PARTNER_OWNER']],
    ['RENT', ['PARTNER_OWNER', 'LANDLORD']],
    ['car rental', ['PARTNER_OWNER', 'LANDLORD']],
    ['LandLord', ['PARTNER_OWNER', 'LANDLORD']],
    ['MED', ['PARTNER_OWNER', 'DOCTOR']],
    ['doctor', ['PARTNER_OWNER', 'DOCTOR']],
    ['Dental Clinic', ['PARTNER_OWNER', 'DOCTOR']],
    ['RENT_MED', ['PARTNER_OWNER', 'LANDLORD', 'DOCTOR']],
  ])('%s → %j', (type, roles) => {
    expect(partnerRolesFor(type)).toEqual(roles);
  });
});

describe('document sniffing', () => {
  it('recognises JPEG, PNG, WebP and PDF by their bytes only', () => {
    expect(sniffDocumentType(Buffer.from([0xff, 0xd8, 0xff, 0xe1, 1]))).toBe('image/jpeg');
    expect(sniffDocumentType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffDocumentType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP')]))).toBe('image/webp');
    expect(sniffDocumentType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVE')]))).toBeUndefined();
    expect(sniffDocumentType(Buffer.from('%PDF-1.4'))).toBe('application/pdf');
    expect(sniffDocumentType(Buffer.from('<html>'))).toBeUndefined();
    expect(sniffDocumentType(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('consumer booking guard (route hat CON)', () => {
  const booking = {
    name: 'probe',
    routes: () => [
      defineRoute({
        method: 'post',
        path: '/probe/bookings',
        operationId: 'postProbeBookings',
        tag: 'rides',
        summary: 'probe',
        auth: ['USER'],
        hat: 'CON',
        request: { body: z.object({ to: z.string() }) },
        response: { status: 201, description: 'ok', schema: z.object({ ok: z.boolean() }) },
        handler: () => ({ ok: true }),
      }),
    ],
  };
  it('lets a consumer book and refuses a driver (the DRIVER hat is exclusive)', async () => {
    const server = await listen(unitApp({ config: testConfig(), modules: [booking] }).app);
    try {
      const post = (roles: string[]) =>
        fetch(`${server.url}/api/v1/probe/bookings`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${signAccessToken(TEST_JWT_SECRET, { roles })}` },
          body: JSON.stringify({ to: 'airport' }),
        });
      expect((await post(['USER'])).status).toBe(201);
      expect((await post(['USER', 'PARTNER_OWNER'])).status).toBe(201);
      const driver = await post(['USER', 'DRIVER']);
      expect(driver.status).toBe(403);
      expect(((await driver.json()) as { message: string }).message).toBe('Drivers cannot book on the consumer app');
    } finally {
      await server.close();
    }
  });
});
