// Public face of the rides module: ride statuses for modules that show or link rides.
export { RIDE_STATUSES, RIDE_CLASSES, type RideStatus, type RideClass } from './rides.model';
