// Reported by /health and the OpenAPI document: the functions package's version (bundled at build time).
import pkg from '../package.json';

export const SERVICE_NAME = 'superapp-backend';
export const API_VERSION: string = pkg.version;
