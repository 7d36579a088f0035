import { documentTaskQueue } from '../../platform/kits/tasks/tasks';
// Collection names, apart from the schemas: the module definition (loaded at every cold start) needs only these.
/** `rental_listings/{id}`: landlords' homes to rent (a catalog of the platform kit): rent, deposit, area, rooms. */
export const RENTAL_LISTINGS = 'rental_listings';
/** `rental_deposits/{id}`: a tenant's deposit for a listing, held in their wallet until the lease (rentals.deposits.ts). */
export const RENTAL_DEPOSITS = 'rental_deposits';
/** Refunds a deposit still HELD when its lease window ends. */
export const RENTAL_DEPOSIT_QUEUE = documentTaskQueue('rentalDepositExpiry', 'depositId');
