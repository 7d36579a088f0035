import { configSchema } from '../../core/config/config.schema';
import type { Locale } from './locales';

// DEFAULT_LOCALE: the language of accounts that never chose one (older accounts, accounts an administrator or a
// partner created) and of registrations whose Accept-Language names no supported language. The app sets it
// from its configuration; triggers and tasks, which build no app, read the environment as the schema does.
let chosen: Locale | undefined;

export function useDefaultLocale(locale: Locale): void {
  chosen = locale;
}

export function defaultLocale(): Locale {
  chosen ??= configSchema.shape.DEFAULT_LOCALE.parse(process.env.DEFAULT_LOCALE);
  return chosen;
}
