import { mediaServicesFor } from '../../../src/modules/media/media.wiring';
import { createMediaService } from '../../../src/modules/media/media.service';
import { imageLinks } from '../../../src/modules/media';
import { PRESCRIPTION_LINK_TTL_SEC } from '../../../src/modules/orders/orders.queries';
import { NotFoundError } from '../../../src/platform/core/errors/app-error';
import type { Tokens } from '../../helpers/accounts';
import { call as sharedCall } from '../../helpers/api';
import { advance, draftOf, freeCourier, handoverPhoto, place, useOrdersApp } from '../../helpers/orders';

// An order's prescription (GET /orders/{id} prescriptionUrl): a short-lived link to the consumer's upload, never its
// permanent publicUrl, shown to the consumer and the store while the order is live, to an administrator always, to the
// courier never; the link's bytes until it lapses, 404 after (the clock moved), altered or for another item.
jest.setTimeout(60_000);

const { doubles, app, cast } = useOrdersApp();

const get = (id: string, who: Tokens) => app.call('GET', `/orders/${id}`, { token: who });
/** The link fetched from this test's API (its host is the configured public address). */
const fetchLink = (url: string) => {
  const link = new URL(url);
  return fetch(`${app.base}${link.pathname}${link.search}`);
};
async function prescriptionOrder() {
  const mediaId = await handoverPhoto(cast.consumer);
  const order = await place(app, { ...draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store), prescriptionMediaId: mediaId });
  return { mediaId, order };
}

describe('prescriptionUrl', () => {
  it('a fresh short-lived link for the consumer, the store and an administrator; the bytes until it lapses', async () => {
    const { mediaId, order } = await prescriptionOrder();
    const permanent = (await sharedCall('GET', `/media/${mediaId}`, { token: cast.consumer.accessToken })).body.publicUrl as string;
    const urls: string[] = [];
    for (const who of [cast.consumer, cast.staff, cast.admin]) {
      const seen = await get(order.id, who);
      expect([seen.status, seen.body.prescriptionMediaId]).toEqual([200, mediaId]);
      expect(seen.body.prescriptionUrl).toEqual(expect.stringContaining(`/api/v1/media/files/media/${cast.consumer.user.id}/${mediaId}.`));
      expect(new URL(seen.body.prescriptionUrl).searchParams.get('token')).not.toBe(new URL(permanent).searchParams.get('token'));
      urls.push(seen.body.prescriptionUrl);
    }
    const res = await fetchLink(urls[1]);
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([200, 'image/jpeg', 'private, no-store']);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(Buffer.from(await (await fetchLink(permanent)).arrayBuffer()));

    // The same link checked by the media service a moment after its lifetime: refused.
    const { storage } = mediaServicesFor(app.config);
    const later = createMediaService({
      storage,
      maxFileBytes: app.config.MEDIA_MAX_FILE_BYTES,
      presignTtlSec: app.config.MEDIA_PRESIGN_TTL_SEC,
      apiPublicUrl: app.config.API_PUBLIC_URL,
      linkSecret: app.config.JWT_SECRET,
      now: () => Date.now() + (PRESCRIPTION_LINK_TTL_SEC + 1) * 1000,
    });
    const [, , , , , ownerId, name] = new URL(urls[1]).pathname.split('/');
    const token = new URL(urls[1]).searchParams.get('token')!;
    await expect(later.file(ownerId, name, token)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('a link made longer ago than its lifetime is 404; an altered one, or one turned to another item, too', async () => {
    const { order } = await prescriptionOrder();
    const past = app.shifted(-(PRESCRIPTION_LINK_TTL_SEC + 60) * 1000, [], { media: imageLinks(app.config) });
    const stale = (await past.get({ userId: cast.staff.user.id, admin: false }, order.id)).prescriptionUrl!;
    expect((await fetchLink(stale)).status).toBe(404);

    const fresh = new URL((await get(order.id, cast.staff)).body.prescriptionUrl);
    expect((await fetchLink(fresh.href)).status).toBe(200);
    const token = fresh.searchParams.get('token')!;
    const [body, signature] = token.split('.');
    const terms = JSON.parse(Buffer.from(body, 'base64url').toString()) as { m: string; x: number };
    const extended = `${Buffer.from(JSON.stringify({ ...terms, x: terms.x + 86_400_000 })).toString('base64url')}.${signature}`;
    fresh.searchParams.set('token', extended);
    expect((await fetchLink(fresh.href)).status).toBe(404);
    // The token of one upload does not open another of the same owner.
    const other = await handoverPhoto(cast.consumer);
    const moved = new URL(fresh.href.replace(/\/[A-Za-z0-9]+\.([a-z0-9]+)\?/, `/${other}.$1?`));
    moved.searchParams.set('token', token);
    expect((await fetchLink(moved.href)).status).toBe(404);
  });

  it('shown only while the order is live: none to the courier, none once delivered or cancelled (an administrator still sees it); 404 to others', async () => {
    const courier = await freeCourier(doubles);
    const { order } = await prescriptionOrder();
    expect((await get(order.id, cast.other)).status).toBe(404);
    await advance(app, cast, order.id, 'COURIER_ASSIGNED');
    expect((await get(order.id, courier)).body).toMatchObject({ status: 'COURIER_ASSIGNED', prescriptionUrl: null, prescriptionMediaId: null });
    expect((await get(order.id, cast.staff)).body.prescriptionUrl).toEqual(expect.any(String));
    await advance(app, cast, order.id, 'DELIVERED', courier);
    const after = await Promise.all([cast.consumer, cast.staff, cast.admin].map((who) => get(order.id, who)));
    expect(after.map((r) => [r.body.status, r.body.prescriptionUrl === null])).toEqual([
      ['DELIVERED', true],
      ['DELIVERED', true],
      ['DELIVERED', false],
    ]);

    const { order: cancelled } = await prescriptionOrder();
    await app.call('POST', `/orders/${cancelled.id}/cancel`, { token: cast.consumer, body: {} });
    const seen = await Promise.all([cast.consumer, cast.staff, cast.admin].map((who) => get(cancelled.id, who)));
    expect(seen.map((r) => [r.body.status, r.body.prescriptionUrl === null])).toEqual([
      ['CANCELLED', true],
      ['CANCELLED', true],
      ['CANCELLED', false],
    ]);
    expect((await get(cancelled.id, cast.other)).status).toBe(404);
  });
});
