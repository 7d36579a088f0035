// Public face of the admin module: the top layer; no module builds on it.
export type { AdminService } from './admin.service';
