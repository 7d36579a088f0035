import { AppError, NotFoundError } from '../../platform/core/errors/app-error';
import type { ErrorCode } from '../../platform/core/errors/codes';
import { distanceMeters } from '../../platform/kits/geo/geo';
import type { CartContext } from './cart.context';
import { deliveryFeeFor, lineRequestOf, pricingOf, type CartLineRecord, type CartRecord, type Pricing } from './cart.model';
import type { OrderDraft, PricedLine, Seller, SellerRef, SellersPort } from './cart.ports';

// Pricing a cart as the server sees it now: every line through the seller's menu (prices, options, availability,
// stock), the fees by distance, the voucher, and what stands in the way of checking out. Nothing here writes.

/** Something that stops a checkout now; the quote lists them all, checkout refuses with the first. */
export interface Problem {
  status: number;
  code: string;
  message: string;
  /** The cart line concerned (null: the cart as a whole). */
  lineId: string | null;
  details: unknown;
}

export interface LinePrice {
  line: CartLineRecord;
  priced: PricedLine | null;
  problem: Problem | null;
}

const problemOf = (err: AppError, lineId: string | null): Problem => ({
  status: err.statusCode,
  code: err.code,
  message: err.message,
  lineId,
  details: err.details ?? null,
});

/** A refusal (a 4xx AppError), as opposed to something failing. */
export const isRefusal = (err: unknown): err is AppError => err instanceof AppError && err.statusCode < 500;

/** A refusal of the seller's (4xx) is a problem of the line; anything else is the seller failing, thrown on. */
const refusal = (err: unknown): AppError => {
  if (isRefusal(err)) return err;
  throw err;
};

/**
 * Prices the lines in one call; when the seller refuses it, each line alone, to tell which ones (a sold-out item, an
 * option gone from the menu). Lines that pass alone but not together (two lines of the last units) are the cart's problem.
 */
export async function priceLines(sellers: SellersPort, ref: SellerRef, lines: CartLineRecord[]): Promise<{ lines: LinePrice[]; problems: Problem[] }> {
  if (lines.length === 0) return { lines: [], problems: [] };
  let batch: AppError;
  try {
    const priced = await sellers.quote(ref, lines.map(lineRequestOf));
    return { lines: lines.map((line, i) => ({ line, priced: priced[i], problem: null })), problems: [] };
  } catch (err) {
    batch = refusal(err);
  }
  const each = await Promise.all(
    lines.map(async (line): Promise<LinePrice> => {
      try {
        const [priced] = await sellers.quote(ref, [lineRequestOf(line)]);
        return { line, priced, problem: null };
      } catch (err) {
        return { line, priced: null, problem: problemOf(refusal(err), line.id) };
      }
    }),
  );
  const lineProblems = each.flatMap((l) => (l.problem ? [l.problem] : []));
  return { lines: each, problems: lineProblems.length > 0 ? lineProblems : [problemOf(batch, null)] };
}

export const itemsTotal = (lines: ReadonlyArray<{ priced: PricedLine | null }>) => lines.reduce((sum, l) => sum + (l.priced?.lineTotalVnd ?? 0), 0);

export type Dropoff = OrderDraft['dropoff'];
export type AddressInput =
  { addressId: string } | { location: { lat: number; lng: number }; address: string; recipientName?: string; phone?: string; note?: string };

/** Where to deliver: one of the caller's saved addresses (404 CART_ADDRESS_NOT_FOUND otherwise), or the one given. */
export async function dropoffOf(ctx: CartContext, userId: string, input: AddressInput): Promise<Dropoff> {
  if ('addressId' in input) {
    const saved = await ctx.addresses.saved(userId, input.addressId);
    if (!saved) throw new NotFoundError('No such saved address of yours').withCode('CART_ADDRESS_NOT_FOUND');
    return {
      lat: saved.lat,
      lng: saved.lng,
      address: saved.address,
      recipientName: saved.contactName,
      phone: saved.contactPhone,
      note: saved.driverNote,
      addressId: saved.id,
    };
  }
  return {
    lat: input.location.lat,
    lng: input.location.lng,
    address: input.address,
    recipientName: input.recipientName ?? null,
    phone: input.phone ?? null,
    note: input.note ?? null,
    addressId: null,
  };
}

/** What can be told of a checkout before its lines are priced: the store, where to, and the cart as read. */
export interface UnpricedAssessment {
  seller: Seller;
  cart: CartRecord | undefined;
  dropoff: Dropoff | null;
  distanceM: number | null;
  prescriptionMediaId: string | null;
  /** The problems that need no prices (assessLines places them among the others). */
  unpricedProblems: { empty: Problem[]; closed: Problem[]; range: Problem[]; prescriptionInvalid: Problem[] };
}

export interface Assessment extends UnpricedAssessment {
  lines: LinePrice[];
  /** Without a voucher (checkout reserves it; the quote previews it). `deliveryFeeVnd` is 0 without an address. */
  pricing: Pricing;
  problems: Problem[];
}

const issue = (status: number, code: ErrorCode, message: string, details: unknown = null): Problem => ({ status, code, message, lineId: null, details });

/**
 * The seller, the drop-off and the problems that need no prices (an empty cart, the store closed, the address out of
 * range, an invalid prescription image). 404 CART_SELLER_NOT_FOUND when the seller is gone.
 */
export async function assessUnpriced(
  ctx: CartContext,
  userId: string,
  input: { seller: SellerRef; address?: AddressInput; prescriptionMediaId?: string; cart: CartRecord | undefined },
  /** The seller's read when the caller started it already (beside its own reads). */
  sellerRead?: Promise<Seller | undefined>,
): Promise<UnpricedAssessment> {
  const [seller, dropoff, image] = await Promise.all([
    sellerRead ?? ctx.sellers.get(input.seller),
    input.address ? dropoffOf(ctx, userId, input.address) : null,
    input.prescriptionMediaId === undefined ? null : ctx.media.attachableImage(userId, input.prescriptionMediaId),
  ]);
  if (!seller) throw sellerGone(input.seller);
  const distanceM = dropoff ? Math.round(distanceMeters(seller, dropoff)) : null;
  const empty = (input.cart?.lines.length ?? 0) === 0 ? [issue(409, 'CART_EMPTY', `Your cart at ${seller.name} is empty`)] : [];
  const closed = seller.accepting
    ? []
    : [issue(409, 'CART_SELLER_CLOSED', `${seller.name} is not taking orders now`, { openNow: seller.openNow, paused: seller.paused })];
  const range =
    distanceM !== null && distanceM > seller.deliveryRadiusM
      ? [
          issue(422, 'CART_OUT_OF_RANGE', `${seller.name} delivers within ${seller.deliveryRadiusM} m; the address is ${distanceM} m away`, {
            distanceM,
            deliveryRadiusM: seller.deliveryRadiusM,
          }),
        ]
      : [];
  const prescriptionInvalid =
    input.prescriptionMediaId !== undefined && !image
      ? [issue(422, 'CART_PRESCRIPTION_INVALID', 'prescriptionMediaId is not one of your uploaded images')]
      : [];
  return {
    seller,
    cart: input.cart,
    dropoff,
    distanceM,
    prescriptionMediaId: input.prescriptionMediaId ?? null,
    unpricedProblems: { empty, closed, range, prescriptionInvalid },
  };
}

/** Whether something that needs no prices stands in the way (an empty cart, the store, the address, the image). */
export const refusedUnpriced = (u: UnpricedAssessment) => Object.values(u.unpricedProblems).some((p) => p.length > 0);

/**
 * The lines as priced now added to the unpriced assessment: the pricing and every problem, in the order the quote
 * lists them (an empty cart, the lines, the store closed, out of range, below the minimum, a prescription needed or
 * invalid). Pure: the checkout's transaction prices with it too.
 */
export function assessLines(settings: CartContext['settings'], unpriced: UnpricedAssessment, lines: LinePrice[], lineProblems: Problem[]): Assessment {
  const { seller, distanceM } = unpriced;
  const pricing = pricingOf({
    itemsVnd: itemsTotal(lines),
    deliveryFeeVnd: distanceM === null ? 0 : deliveryFeeFor(distanceM, settings.delivery),
    serviceFeeVnd: settings.serviceFeeVnd,
    discountVnd: 0,
  });
  const allPriced = lines.length > 0 && lines.every((l) => l.priced !== null);
  const minimum =
    allPriced && pricing.itemsVnd < seller.minOrderVnd
      ? [
          issue(422, 'CART_BELOW_MINIMUM', `${seller.name} takes orders from ${seller.minOrderVnd} ₫ of items`, {
            minOrderVnd: seller.minOrderVnd,
            itemsVnd: pricing.itemsVnd,
          }),
        ]
      : [];
  const needing = lines.filter((l) => l.priced?.requiresPrescription).map((l) => l.line.id);
  const required =
    needing.length > 0 && unpriced.prescriptionMediaId === null
      ? [issue(422, 'CART_PRESCRIPTION_REQUIRED', 'A prescription image is needed for these products', { lineIds: needing })]
      : [];
  const { empty, closed, range, prescriptionInvalid } = unpriced.unpricedProblems;
  return {
    ...unpriced,
    lines,
    pricing,
    problems: [...empty, ...lineProblems, ...closed, ...range, ...minimum, ...required, ...prescriptionInvalid],
  };
}

/** An unpriced assessment completed: its cart's lines priced now through the seller's menu. */
export async function completeAssessment(ctx: CartContext, ref: SellerRef, unpriced: UnpricedAssessment): Promise<Assessment> {
  const priced = await priceLines(ctx.sellers, ref, unpriced.cart?.lines ?? []);
  return assessLines(ctx.settings, unpriced, priced.lines, priced.problems);
}

/**
 * The caller's cart at a seller priced now, with everything that stands in the way of checking out. 404
 * CART_SELLER_NOT_FOUND when the seller is gone; an empty (or missing) cart is the problem CART_EMPTY.
 */
export async function assess(
  ctx: CartContext,
  userId: string,
  input: { seller: SellerRef; address?: AddressInput; prescriptionMediaId?: string; cart: CartRecord | undefined },
  sellerRead?: Promise<Seller | undefined>,
): Promise<Assessment> {
  const [unpriced, priced] = await Promise.all([
    assessUnpriced(ctx, userId, input, sellerRead),
    priceLines(ctx.sellers, input.seller, input.cart?.lines ?? []),
  ]);
  return assessLines(ctx.settings, unpriced, priced.lines, priced.problems);
}

export const sellerGone = (ref: SellerRef) =>
  new AppError(404, 'No such store, or it is not open for business on the platform', { seller: ref }).withCode('CART_SELLER_NOT_FOUND');

/** The refusal a problem stands for (a seller's own code passes through unchanged). */
export function refusalOf(problem: Problem): AppError {
  const err = new AppError(problem.status, problem.message, problem.details ?? undefined);
  err.code = problem.code as ErrorCode;
  return err;
}
