// Reported by /health and the OpenAPI document.
export const SERVICE_NAME = 'superapp-backend';
export const API_VERSION = '1.0.0';
