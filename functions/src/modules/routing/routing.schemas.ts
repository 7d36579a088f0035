import { z } from 'zod';
import { LatLngBodySchema } from '../../platform/kits/geo/geo';
import { RIDE_CLASSES } from './routing.model';

export const RouteRequestSchema = z
  .object({ from: LatLngBodySchema, to: LatLngBodySchema, vehicleType: z.enum(RIDE_CLASSES).default('MOTORBIKE') })
  .meta({ id: 'RouteRequest' });

export const EtaSchema = z.object({ distanceM: z.number().int(), durationSec: z.number().int(), provider: z.enum(['estimator', 'osrm']) }).meta({ id: 'Eta' });

export const RouteSchema = EtaSchema.extend({ polyline: z.string().describe('Google encoded polyline, precision 5') }).meta({ id: 'Route' });
