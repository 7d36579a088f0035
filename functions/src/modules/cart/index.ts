// Public face of the cart module. Nothing of the cart is another module's business yet: the orders it places reach
// the orders module through that module's own commands.
export { CARTS, CART_CHECKOUTS } from './cart.collections';
