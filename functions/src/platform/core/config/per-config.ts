import type { AppConfig } from './config.schema';

// A service shared by everything built from one configuration (one per process in production), and a
// separate one for each other configuration (tests build apps with their own).
export function perConfig<T, C extends object = Readonly<AppConfig>>(build: (config: C) => T): (config: C) => T {
  const built = new WeakMap<C, T>();
  return (config) => {
    let service = built.get(config);
    if (service === undefined) {
      service = build(config);
      built.set(config, service);
    }
    return service;
  };
}
