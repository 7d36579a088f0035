// Texts people read (push titles and bodies, inbox items, mails, SMS) in each account's language: locales and
// Accept-Language, VND and Vietnam-time formatting, and typed message catalogues per module. The zod schemas
// (LocaleSchema, AcceptLanguageHeadersSchema) are in i18n.schemas.ts: texts load with module definitions, zod must not.
export * from './locales';
export * from './format';
export * from './messages';
export * from './default-locale';
